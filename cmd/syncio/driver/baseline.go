package driver

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// A baseline is the set of findings a team has accepted for now: with
// -baseline, only findings not in it fail the run. A finding is keyed by
// rule, package, enclosing function and message with line and column
// numbers removed, so moving code (an edit above it, a function moved
// within its package) does not make it new. Identical keys are counted:
// a second copy of a baselined call in the same function is new.

// baselineVersion is the format version written to and required of a
// baseline file.
const baselineVersion = 1

// baselineFile is the JSON form of a baseline.
type baselineFile struct {
	Version  int             `json:"version"`
	Tool     string          `json:"tool"`
	Findings []baselineEntry `json:"findings"`
}

type baselineEntry struct {
	Rule     string `json:"rule"`
	Package  string `json:"package"`
	Function string `json:"function"`
	Message  string `json:"message"`
	Count    int    `json:"count"`
}

func (e baselineEntry) key() string {
	return e.Rule + "\x00" + e.Package + "\x00" + e.Function + "\x00" + e.Message
}

// Baseline states of a finding, as SARIF's result.baselineState names them.
const (
	stateNew       = "new"
	stateUnchanged = "unchanged"
)

// readBaseline reads a baseline file; a missing file is (nil, nil).
func readBaseline(path string) (map[string]int, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var bf baselineFile
	if err := json.Unmarshal(data, &bf); err != nil {
		return nil, fmt.Errorf("not a syncio baseline (JSON): %w; delete it or rewrite it with -baseline-write", err)
	}
	if bf.Version != baselineVersion {
		return nil, fmt.Errorf("baseline version %d, this syncio reads version %d; rewrite it with -baseline-write", bf.Version, baselineVersion)
	}
	counts := map[string]int{}
	for _, e := range bf.Findings {
		counts[e.key()] += max(e.Count, 1)
	}
	return counts, nil
}

// writeBaseline writes the keys of found to path.
func writeBaseline(path, tool string, found []finding) error {
	byKey := map[string]*baselineEntry{}
	var entries []*baselineEntry
	for _, f := range found {
		e := f.base
		if p := byKey[e.key()]; p != nil {
			p.Count++
			continue
		}
		e.Count = 1
		byKey[e.key()] = &e
		entries = append(entries, &e)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].key() < entries[j].key() })
	bf := baselineFile{Version: baselineVersion, Tool: tool, Findings: []baselineEntry{}}
	for _, e := range entries {
		bf.Findings = append(bf.Findings, *e)
	}
	data, err := json.MarshalIndent(bf, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// applyBaseline sets the state of each finding (in position order, so the
// first copies of a key are the baselined ones) and returns how many are
// new and how many baselined findings were not seen.
func applyBaseline(found []finding, counts map[string]int) (fresh, gone int) {
	left := maps.Clone(counts)
	for i := range found {
		k := found[i].base.key()
		if left[k] > 0 {
			left[k]--
			found[i].state = stateUnchanged
			continue
		}
		found[i].state = stateNew
		fresh++
	}
	for _, n := range left {
		gone += n
	}
	return fresh, gone
}

// lineNumbers are the ":line" and ":line:col" suffixes of file names in a
// message ("locked at api.go:30").
var lineNumbers = regexp.MustCompile(`(\.go):\d+(?::\d+)?`)

// declIndex finds the package and enclosing function of a position, in any
// file loaded with syntax: a dispatch finding is reported by the package
// that sees the binding, at a call in another package's file.
type declIndex struct {
	files map[*token.File]fileDecls
}

type fileDecls struct {
	pkg   string
	decls []*ast.FuncDecl
}

func newDeclIndex(g *checker.Graph) *declIndex {
	ix := &declIndex{files: map[*token.File]fileDecls{}}
	var roots []*packages.Package
	for _, act := range g.Roots {
		roots = append(roots, act.Package)
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		for _, f := range p.Syntax {
			tf := p.Fset.File(f.Pos())
			if tf == nil {
				continue
			}
			fd := fileDecls{pkg: pkgName(p)}
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok {
					fd.decls = append(fd.decls, fn)
				}
			}
			ix.files[tf] = fd
		}
	})
	return ix
}

// entry is the baseline key of a diagnostic of package pkg.
func (ix *declIndex) entry(fset *token.FileSet, pkg string, pos token.Pos, rule, msg string) baselineEntry {
	e := baselineEntry{Rule: rule, Package: pkg, Function: "-", Message: lineNumbers.ReplaceAllString(msg, "$1")}
	fd, ok := ix.files[fset.File(pos)]
	if !ok {
		return e
	}
	e.Package = fd.pkg
	i, _ := slices.BinarySearchFunc(fd.decls, pos, func(d *ast.FuncDecl, p token.Pos) int {
		switch {
		case d.End() <= p:
			return -1
		case d.Pos() > p:
			return 1
		}
		return 0
	})
	if i < len(fd.decls) && fd.decls[i].Pos() <= pos && pos < fd.decls[i].End() {
		e.Function = funcName(fd.decls[i])
	}
	return e
}

// funcName is F, T.M or (*T).M.
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	name := "?"
	if id, ok := t.(*ast.Ident); ok {
		name = id.Name
	}
	if star != "" {
		return "(" + star + name + ")." + d.Name.Name
	}
	return name + "." + d.Name.Name
}

// ruleOf is a diagnostic's rule ID: its Category, or the "(SIOnnn)" suffix.
func ruleOf(category, msg string) string {
	if category != "" {
		return category
	}
	if i := strings.LastIndex(msg, "("); i >= 0 && strings.HasSuffix(msg, ")") {
		return msg[i+1 : len(msg)-1]
	}
	return ""
}
