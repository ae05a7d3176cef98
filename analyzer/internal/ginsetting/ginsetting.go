// Package ginsetting decides, for the whole program, whether a
// *gin.Context given as a context.Context is the request's context.
//
// gin's Context.Done is nil unless the engine sets ContextWithFallback =
// true; then it is the request's. The engine is usually built and
// configured in a router package or main, above the handlers and services
// that receive c, and analysis runs bottom-up: the package where c is
// passed cannot see the setting. So a package that cannot decide holds the
// diagnostics that only the setting makes findings (HeldFact), and the
// first package above that can decide reports or drops them:
//
//   - a package that sets ContextWithFallback = true, or sees a package
//     below it that does (FallbackFact), drops them: c is the request's;
//   - a package that builds an engine (gin.New, gin.Default) without
//     the setting, and a main package (the top of a program), report
//     them;
//   - any other package passes them on; what no analysed package
//     decided is said once by the standalone driver (seen.Package's
//     GinHeld and GinDecided), with the flag that decides it.
//
// An explicit setting (-gin-context-fallback, true or false) decides
// every package at once. A program that builds one engine with the
// setting and another without is taken as setting it: syncio does not
// follow which engine serves which handler.
//
// The package knows no rule: which findings depend on the setting is the
// analyzer's (Hold.Finding), as is how a diagnostic is made.
package ginsetting

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

// Mode is the configured setting: Auto decides package by package as
// the doc comment says; On and Off decide every package.
type Mode int

const (
	Auto Mode = iota
	On
	Off
)

// Decision is what one package knows of the setting.
type Decision int

const (
	// Undecided: nothing here or below says; hold what depends on it.
	Undecided Decision = iota
	// Fallback: c is the request's context.
	Fallback
	// NoFallback: c is never cancelled; report.
	NoFallback
)

// FallbackFact says that a package sets ContextWithFallback = true on a
// gin engine: for the packages above, the program sets it.
type FallbackFact struct{}

// AFact marks FallbackFact as a package fact.
func (*FallbackFact) AFact() {}

func (*FallbackFact) String() string { return "gin-fallback" }

// Engine is what a package's own code does with gin engines: sets
// ContextWithFallback = true on one (Sets), builds one (Builds).
type Engine struct{ Sets, Builds bool }

// HeldFact carries the diagnostics a package held, undecided.
type HeldFact struct{ Diags []Held }

// AFact marks HeldFact as a package fact.
func (*HeldFact) AFact() {}

func (f *HeldFact) String() string { return "gin-held(" + strconv.Itoa(len(f.Diags)) + ")" }

// DecidedFact lists the held diagnostics (Held.Key) a package decided, so
// that the packages above it do not decide them again.
type DecidedFact struct{ Keys []string }

// AFact marks DecidedFact as a package fact.
func (*DecidedFact) AFact() {}

func (f *DecidedFact) String() string { return "gin-decided(" + strconv.Itoa(len(f.Keys)) + ")" }

// Held is a diagnostic with its positions as "file:line:col" sites, the
// form a package above can place again.
type Held struct {
	Pos, End string
	Category string
	URL      string
	Message  string
	Related  []HeldRelated
	Fixes    []HeldFix
}

// HeldRelated is a diagnostic's related information.
type HeldRelated struct{ Pos, Message string }

// HeldFix is a suggested fix; its edits' NewText is kept as a string.
type HeldFix struct {
	Message string
	Edits   []HeldEdit
}

// HeldEdit is one edit of a HeldFix.
type HeldEdit struct{ Pos, End, NewText string }

// Key names a held diagnostic across packages.
func (h Held) Key() string { return h.Pos + "|" + h.Category + "|" + h.Message }

// Hold turns d into a Held, with site naming a position.
func Hold(d analysis.Diagnostic, site func(token.Pos) string) Held {
	at := func(p token.Pos) string {
		if !p.IsValid() {
			return ""
		}
		return site(p)
	}
	h := Held{Pos: at(d.Pos), End: at(d.End), Category: d.Category, URL: d.URL, Message: d.Message}
	for _, r := range d.Related {
		h.Related = append(h.Related, HeldRelated{Pos: at(r.Pos), Message: r.Message})
	}
	for _, f := range d.SuggestedFixes {
		hf := HeldFix{Message: f.Message}
		for _, e := range f.TextEdits {
			hf.Edits = append(hf.Edits, HeldEdit{Pos: at(e.Pos), End: at(e.End), NewText: string(e.NewText)})
		}
		h.Fixes = append(h.Fixes, hf)
	}
	return h
}

// Diagnostic is h placed in this pass's file set by sitePos; ok is false
// when its position cannot be placed. A fix whose edits cannot all be
// placed is left out, never applied in part.
func (h Held) Diagnostic(sitePos func(string) token.Pos) (analysis.Diagnostic, bool) {
	pos := sitePos(h.Pos)
	if !pos.IsValid() {
		return analysis.Diagnostic{}, false
	}
	d := analysis.Diagnostic{Pos: pos, Category: h.Category, URL: h.URL, Message: h.Message}
	if h.End != "" {
		if end := sitePos(h.End); end.IsValid() && end >= pos {
			d.End = end
		}
	}
	for _, r := range h.Related {
		if p := sitePos(r.Pos); p.IsValid() {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: p, Message: r.Message})
		}
	}
fixes:
	for _, f := range h.Fixes {
		sf := analysis.SuggestedFix{Message: f.Message}
		for _, e := range f.Edits {
			p, q := sitePos(e.Pos), sitePos(e.End)
			if !p.IsValid() || !q.IsValid() || q < p {
				continue fixes
			}
			sf.TextEdits = append(sf.TextEdits, analysis.TextEdit{Pos: p, End: q, NewText: []byte(e.NewText)})
		}
		d.SuggestedFixes = append(d.SuggestedFixes, sf)
	}
	return d, true
}

// Scan is what the package's files do with gin engines.
func Scan(pass *analysis.Pass, files []*ast.File) Engine {
	var f Engine
	if !nearGin(pass.Pkg) {
		return f // gin.New and the field are out of this package's reach
	}
	for _, file := range files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if setsFallback(pass.TypesInfo, n) {
					f.Sets = true
				}
			case *ast.CallExpr:
				if fn := typeutil.StaticCallee(pass.TypesInfo, n); fn != nil && fn.Pkg() != nil &&
					fn.Pkg().Path() == knowledge.PathGin && (fn.Name() == "New" || fn.Name() == "Default") {
					if sig, _ := fn.Type().(*types.Signature); sig != nil && sig.Recv() == nil {
						f.Builds = true
					}
				}
			}
			return true
		})
	}
	return f
}

// setsFallback reports whether as assigns true to a gin Engine's
// ContextWithFallback field (engine.ContextWithFallback = true).
func setsFallback(info *types.Info, as *ast.AssignStmt) bool {
	if len(as.Lhs) != len(as.Rhs) {
		return false
	}
	for i, lhs := range as.Lhs {
		sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "ContextWithFallback" {
			continue
		}
		// The field itself, so an Engine embedded in a type of the
		// service's counts too.
		s := info.Selections[sel]
		if s == nil || s.Obj().Pkg() == nil || s.Obj().Pkg().Path() != knowledge.PathGin {
			continue
		}
		if tv, ok := info.Types[as.Rhs[i]]; ok && tv.Value != nil && tv.Value.String() == "true" {
			return true
		}
	}
	return false
}

// Package is one package's part in the decision.
type Package struct {
	Decision Decision
	// below are the diagnostics held below and decided by none of the
	// packages below, in a fixed order.
	below []Held
	// decided are the keys decided below.
	decided map[string]bool
}

// Decide is the decision of a package whose own code does own, given the
// configured mode, whether it is a main package, and the package facts
// of the packages below it (in the fixed order the analyzer reads them).
func Decide(mode Mode, own Engine, main bool, below []analysis.Fact) *Package {
	p := &Package{decided: map[string]bool{}}
	setBelow := false
	var held []Held
	for _, f := range below {
		switch f := f.(type) {
		case *FallbackFact:
			setBelow = true
		case *HeldFact:
			held = append(held, f.Diags...)
		case *DecidedFact:
			for _, k := range f.Keys {
				p.decided[k] = true
			}
		}
	}
	seen := map[string]bool{}
	for _, h := range held {
		if k := h.Key(); !p.decided[k] && !seen[k] {
			seen[k] = true
			p.below = append(p.below, h)
		}
	}
	switch {
	case mode == On:
		p.Decision = Fallback
	case mode == Off:
		p.Decision = NoFallback
	case own.Sets || setBelow:
		p.Decision = Fallback
	case own.Builds || main:
		p.Decision = NoFallback
	}
	return p
}

// Settle exports what the packages above need (whether the package sets
// the fallback, what it held, what it decided) and reports the held
// diagnostics from below when the decision is NoFallback. It returns the
// keys of the diagnostics this package held and those it decided, for
// the driver's account of what was never decided.
func (p *Package) Settle(own Engine, held []Held, export func(analysis.Fact), sitePos func(string) token.Pos, report func(analysis.Diagnostic)) (heldKeys, decidedKeys []string) {
	if own.Sets {
		export(&FallbackFact{})
	}
	if len(held) > 0 {
		export(&HeldFact{Diags: held})
		for _, h := range held {
			heldKeys = append(heldKeys, h.Key())
		}
	}
	if p.Decision == Undecided || len(p.below) == 0 {
		return heldKeys, nil
	}
	for _, h := range p.below {
		decidedKeys = append(decidedKeys, h.Key())
		if p.Decision != NoFallback {
			continue
		}
		if d, ok := h.Diagnostic(sitePos); ok {
			report(d)
		}
	}
	sort.Strings(decidedKeys)
	export(&DecidedFact{Keys: decidedKeys})
	return heldKeys, decidedKeys
}

// nearGin reports whether pkg imports gin, or imports a package that does:
// calling gin.New needs the import, and setting ContextWithFallback needs
// an engine's type, gin's or one embedding it (a service's own server type,
// one import away).
func nearGin(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == knowledge.PathGin {
			return true
		}
		for _, imp2 := range imp.Imports() {
			if imp2.Path() == knowledge.PathGin {
				return true
			}
		}
	}
	return false
}
