// Package seen is what the analyzer saw of a package's request roots and
// route registrations: the analyzer's result for each package, which the
// standalone driver merges into the roots line, the -roots-report file and
// the warning for a package whose routes led to no root. A run that
// reports no finding means something only when it says what it looked at.
package seen

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// How a root was found.
const (
	HowSignature    = "signature"    // its type is a known handler shape
	HowRegistration = "registration" // it was handed to a router's registration call
	HowAdapter      = "adapter"      // it was handed to a handler adapter of the program
	HowDirective    = "directive"    // //syncio:handler
	HowConfig       = "-roots"       // Config.Roots (-roots, golangci settings)
	HowStored       = "stored"       // it was stored into a slot (a struct field) that a request root calls
)

// What a root is to a reader who counts a service's handlers (Root.Kind).
const (
	// KindHandler is a handler a reader counts: registered, converted,
	// stored, or of a handler's shape and never seen called.
	KindHandler = "handler"
	// KindMiddleware is a literal that calls a handler it was given.
	KindMiddleware = "middleware"
	// KindCalled is a function of a handler's shape (or handed to an
	// adapter) that the program only calls on the spot, never registers
	// or keeps as a value: a dispatch branch of another root, as
	// ntfy's handleX methods are of its one registered handle.
	KindCalled = "called"
)

// Root is one request root.
type Root struct {
	Name      string `json:"name"`
	Pos       string `json:"pos"` // file:line:col
	Framework string `json:"framework"`
	How       string `json:"how"`
	// Wraps marks middleware or an adapter: a literal that calls a
	// handler it was given. It runs on the request path of every route it
	// wraps, so it is a root, but a reader counting routes leaves it out.
	Wraps bool `json:"wraps,omitempty"`
	// Kind is what the root is to a reader counting handlers
	// (KindHandler, KindMiddleware, KindCalled), decided by Merge over
	// the whole run.
	Kind string `json:"kind"`
	// CalledAt is, for a KindCalled root, the first place the program
	// calls it (file:line:col).
	CalledAt string `json:"called_at,omitempty"`
	// Key names the function the root is (types.Func.FullName, or "ret:"
	// and the name of the function that returns a root literal) for Refs.
	Key string `json:"-"`
	// Branch is set by the analyzer on a root that may be a dispatch
	// branch: of a handler's shape or handed to an adapter, not
	// registered, not middleware, not a gRPC or connect method nor a
	// ServeHTTP (which run through interfaces the program does not call
	// by name). Merge makes it KindCalled when the run's Refs show it
	// only called on the spot.
	Branch bool `json:"-"`
	// Unfollowed is set on a root that reaches no operation but calls a
	// func value kept in a field, map or package variable that syncio
	// could not resolve (file:line:col of the first such call): the
	// handlers behind it, as in a router of the program's own that keeps
	// them in a generic type, are unseen.
	Unfollowed string `json:"unfollowed,omitempty"`
	// End is where the root's body ends (file:line:col): a finding that
	// dispatch reports inside it, in another package, clears Unfollowed
	// (ClearReached).
	End string `json:"-"`
}

// Registration is one call that hands handlers to a router.
type Registration struct {
	Pos       string `json:"pos"`  // file:line:col of the call
	Call      string `json:"call"` // the registration method, e.g. (*echo.Group).GET
	Framework string `json:"framework"`
	// Handlers are the functions its handler arguments resolved to.
	Handlers []string `json:"handlers,omitempty"`
	// Unresolved says, for each handler argument that resolved to no
	// function, what it is and why it could not be followed.
	Unresolved []string `json:"unresolved,omitempty"`
}

// Package is the analyzer's result for one package.
type Package struct {
	Path          string         `json:"package"`
	Roots         []Root         `json:"roots"`
	Registrations []Registration `json:"registrations"`
	// Refs are the package's references to functions that are, or may
	// be, roots (of this package or another): how often each is called
	// on the spot and how often used as a value.
	Refs []Ref `json:"-"`
	// Unfollowed are the calls on request paths through a func field
	// that the package's dispatch join met and followed to none of the
	// functions stored there, or that a bound of the join cut after some
	// (see Unfollowed).
	Unfollowed []Unfollowed `json:"unfollowed_calls,omitempty"`
	// GinHeld are the findings (by key) that hold only if the gin engine
	// keeps gin's default ContextWithFallback = false, which this package
	// could not see; GinDecided those it decided that packages below held.
	// What no analysed package decided is said once by the driver.
	GinHeld    []string `json:"-"`
	GinDecided []string `json:"-"`
}

// Unfollowed is a call through a func field, on a request path, that
// syncio followed to none of the functions stored there because it cannot
// tell which one the call reads (a generic type's field holding functions
// of several types, a field of one value filled at several places): what
// runs there is unseen, whether the root reached other operations or not.
// Or, Partial, a call through a func field or an interface that syncio
// followed to some of what it may run until a bound cut the rest.
type Unfollowed struct {
	Pos  string `json:"pos"`  // file:line:col of the call
	Slot string `json:"slot"` // the field, and why: "hook.Handler[T].Func holds functions of several types"
	// RootPatterns are, for a field holding functions of several types,
	// the -roots pattern of each type: passing the handlers' one makes
	// every function of that type a root of its own.
	RootPatterns []string `json:"root_patterns,omitempty"`
	// Partial marks a call that syncio followed to some of the functions
	// (or an interface's bound methods) it may run, until a bound of
	// its walk cut the rest: a settings handler's table of actions with
	// more functions than syncio follows per call. Slot then says how
	// many there are and how many were followed.
	Partial bool `json:"partial,omitempty"`
}

// Ref counts one package's references to one function (Root.Key).
// A call on the spot is f(…), or adapt(f)(…) through the program's
// adapters; every other use (a registration's argument, a conversion, a
// store, an argument to anything else) is a value, after which the
// function may be registered anywhere.
type Ref struct {
	Key    string
	Calls  int
	Values int
	At     string // the first call on the spot, file:line:col
}

// Blind reports whether p registers routes but no request root was found
// in it and none of its registrations resolved to a function: its
// handlers were not analysed at all.
func (p *Package) Blind() bool {
	if len(p.Registrations) == 0 || len(p.Roots) > 0 {
		return false
	}
	for _, r := range p.Registrations {
		if len(r.Handlers) > 0 {
			return false
		}
	}
	return true
}

// Report is the roots seen in a whole run: the packages' results merged,
// the test variants of a package folded into it.
type Report struct {
	Roots         []Root         `json:"roots"`
	Registrations []Registration `json:"registrations"`
	// Unresolved are the registrations with at least one handler
	// argument that resolved to no function.
	Unresolved []Registration `json:"unresolved"`
	// Blind are the packages that register routes but where no root was
	// found (see Package.Blind).
	Blind []BlindPackage `json:"blind_packages"`
	// Unfollowed are the calls through a func field that no package
	// followed, or followed only in part (see Package.Unfollowed), each
	// once, in position order.
	Unfollowed []Unfollowed `json:"unfollowed_calls"`
	// GinUndecided are the calls (file:line:col) that give a *gin.Context
	// as a context where no analysed package decided the engine's
	// ContextWithFallback (see Package.GinHeld): not reported either way.
	GinUndecided []string `json:"gin_undecided,omitempty"`
}

// BlindPackage is a package whose routes led to no request root.
type BlindPackage struct {
	Path          string `json:"package"`
	Registrations int    `json:"registrations"`
	First         string `json:"first"` // the first registration call, file:line:col
}

// Merge folds the results of a run's packages into one report. Results
// of one import path (a package and its test variants) are merged first,
// duplicates dropped, and everything is sorted, so the report is the
// same on every run.
func Merge(pkgs []*Package) Report {
	byPath := map[string]*Package{}
	var paths []string
	refs := map[string]*Ref{}
	unfollowed := map[string]Unfollowed{}
	for _, p := range pkgs {
		if p == nil {
			continue
		}
		for _, x := range p.Refs {
			t := refs[x.Key]
			if t == nil {
				t = &Ref{Key: x.Key}
				refs[x.Key] = t
			}
			t.Calls += x.Calls
			t.Values += x.Values
			if x.At != "" && (t.At == "" || posLess(x.At, t.At, "", "")) {
				t.At = x.At
			}
		}
		m := byPath[p.Path]
		if m == nil {
			m = &Package{Path: p.Path}
			byPath[p.Path] = m
			paths = append(paths, p.Path)
		}
		for _, r := range p.Roots {
			if !containsRoot(m.Roots, r) {
				m.Roots = append(m.Roots, r)
			}
		}
		for _, r := range p.Registrations {
			if !containsReg(m.Registrations, r.Pos) {
				m.Registrations = append(m.Registrations, r)
			}
		}
		for _, u := range p.Unfollowed {
			// Every package above the call joins it again: once each,
			// with the types every package saw stored there (one
			// above sees more of them).
			m, ok := unfollowed[u.Pos]
			if !ok || u.Slot < m.Slot {
				// The same whatever order the packages come in.
				m.Pos, m.Slot, m.Partial = u.Pos, u.Slot, u.Partial
			}
			for _, t := range u.RootPatterns {
				if !slices.Contains(m.RootPatterns, t) {
					m.RootPatterns = append(m.RootPatterns, t)
				}
			}
			slices.Sort(m.RootPatterns)
			unfollowed[u.Pos] = m
		}
	}
	sort.Strings(paths)
	var rep Report
	rep.GinUndecided = undecidedGin(pkgs)
	for _, path := range paths {
		p := byPath[path]
		rep.Roots = append(rep.Roots, p.Roots...)
		rep.Registrations = append(rep.Registrations, p.Registrations...)
		if p.Blind() {
			regs := sortedRegs(p.Registrations)
			rep.Blind = append(rep.Blind, BlindPackage{Path: path, Registrations: len(regs), First: regs[0].Pos})
		}
	}
	sort.Slice(rep.Roots, func(i, j int) bool {
		return posLess(rep.Roots[i].Pos, rep.Roots[j].Pos, rep.Roots[i].Name, rep.Roots[j].Name)
	})
	rep.Registrations = sortedRegs(rep.Registrations)
	rep.Unfollowed = []Unfollowed{}
	for _, u := range unfollowed {
		rep.Unfollowed = append(rep.Unfollowed, u)
	}
	sort.Slice(rep.Unfollowed, func(i, j int) bool {
		return posLess(rep.Unfollowed[i].Pos, rep.Unfollowed[j].Pos, rep.Unfollowed[i].Slot, rep.Unfollowed[j].Slot)
	})
	registered := map[string]bool{}
	for _, r := range rep.Registrations {
		if len(r.Unresolved) > 0 {
			rep.Unresolved = append(rep.Unresolved, r)
		}
		for _, h := range r.Handlers {
			registered[h] = true
		}
	}
	for i := range rep.Roots {
		rep.Roots[i].Kind, rep.Roots[i].CalledAt = kindOf(rep.Roots[i], refs, registered)
	}
	if rep.Roots == nil {
		rep.Roots = []Root{}
	}
	if rep.Registrations == nil {
		rep.Registrations = []Registration{}
	}
	if rep.Unresolved == nil {
		rep.Unresolved = []Registration{}
	}
	if rep.Blind == nil {
		rep.Blind = []BlindPackage{}
	}
	return rep
}

// undecidedGin are the sites of the findings some package held for the
// gin setting and none decided, sorted.
func undecidedGin(pkgs []*Package) []string {
	decided := map[string]bool{}
	for _, p := range pkgs {
		if p != nil {
			for _, k := range p.GinDecided {
				decided[k] = true
			}
		}
	}
	sites := map[string]bool{}
	for _, p := range pkgs {
		if p == nil {
			continue
		}
		for _, k := range p.GinHeld {
			if !decided[k] {
				site, _, _ := strings.Cut(k, "|")
				sites[site] = true
			}
		}
	}
	var out []string
	for s := range sites {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return posLess(out[i], out[j], "", "") })
	return out
}

// kindOf says what r is to a reader counting handlers. A root is only
// demoted to KindCalled when the whole run shows it called on the spot
// and never used as a value, and no registration names it: a handler
// that is registered, converted or stored anywhere stays a handler.
func kindOf(r Root, refs map[string]*Ref, registered map[string]bool) (kind, at string) {
	if r.Wraps {
		return KindMiddleware, ""
	}
	if !r.Branch || r.Key == "" || registered[r.Name] {
		return KindHandler, ""
	}
	x := refs[r.Key]
	if x == nil || x.Calls == 0 || x.Values > 0 {
		return KindHandler, ""
	}
	return KindCalled, x.At
}

func containsRoot(rs []Root, r Root) bool {
	for _, x := range rs {
		if x.Pos == r.Pos && x.Name == r.Name {
			return true
		}
	}
	return false
}

func containsReg(rs []Registration, pos string) bool {
	for _, x := range rs {
		if x.Pos == pos {
			return true
		}
	}
	return false
}

func sortedRegs(rs []Registration) []Registration {
	out := append([]Registration(nil), rs...)
	sort.Slice(out, func(i, j int) bool { return posLess(out[i].Pos, out[j].Pos, out[i].Call, out[j].Call) })
	return out
}

// posLess orders file:line:col positions by file, then line and column
// as numbers; tie breaks equal positions.
func posLess(a, b, tieA, tieB string) bool {
	fa, la, ca := splitPos(a)
	fb, lb, cb := splitPos(b)
	switch {
	case fa != fb:
		return fa < fb
	case la != lb:
		return la < lb
	case ca != cb:
		return ca < cb
	}
	return tieA < tieB
}

func splitPos(p string) (file string, line, col int) {
	rest, c, ok := cutLast(p)
	if !ok {
		return p, 0, 0
	}
	f, l, ok := cutLast(rest)
	if !ok {
		return p, 0, 0
	}
	line, _ = strconv.Atoi(l)
	col, _ = strconv.Atoi(c)
	return f, line, col
}

func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// maxShown is how many unresolved registrations the roots line names.
const maxShown = 3

// Line is the one-line summary that ends every standalone run, after
// "syncio: ". short shortens a file:line:col position for display.
func (rep Report) Line(short func(string) string) string {
	var b strings.Builder
	if len(rep.Roots) == 0 {
		b.WriteString("roots: 0 request roots found: no handler was analysed, so the absence of findings says nothing; mark handlers //syncio:handler or pass -roots (docs/frameworks.md)")
	} else {
		var handlers []Root
		wrappers, called := 0, 0
		for _, r := range rep.Roots {
			switch r.Kind {
			case KindMiddleware:
				wrappers++
			case KindCalled:
				called++
			default:
				handlers = append(handlers, r)
			}
		}
		fmt.Fprintf(&b, "roots: %d request %s", len(handlers), plural(len(handlers), "handler"))
		if len(handlers) > 0 {
			fmt.Fprintf(&b, " (%s; by %s)", counts(handlers, func(r Root) string { return r.Framework }), counts(handlers, func(r Root) string { return r.How }))
		}
		var rest []string
		if wrappers > 0 {
			rest = append(rest, fmt.Sprintf("%d middleware or %s that %s a handler %s given", wrappers,
				plural(wrappers, "adapter"), verb(wrappers, "calls", "call"), verb(wrappers, "it is", "they are")))
		}
		if called > 0 {
			rest = append(rest, fmt.Sprintf("%d %s of a handler's shape that the program only calls, never registers (dispatch branches)",
				called, plural(called, "function")))
		}
		if len(rest) > 0 {
			fmt.Fprintf(&b, ", plus %s: %d request roots analysed", strings.Join(rest, " and "), len(rep.Roots))
		}
		var blind []string
		for _, r := range rep.Roots {
			if r.Unfollowed != "" {
				blind = append(blind, shortPos(short, r.Unfollowed))
			}
		}
		if len(blind) > 0 {
			fmt.Fprintf(&b, "; %d of the roots %s no operation but %s a func value kept in a field, map or package variable that syncio could not follow (first at %s), so what runs behind %s is unseen: mark those handlers //syncio:handler or pass -roots",
				len(blind), verb(len(blind), "reaches", "reach"), verb(len(blind), "calls", "call"), blind[0], verb(len(blind), "it", "them"))
		}
		var none, cut []Unfollowed
		for _, u := range rep.Unfollowed {
			if u.Partial {
				cut = append(cut, u)
			} else {
				none = append(none, u)
			}
		}
		if n := len(none); n > 0 {
			u := none[0]
			fmt.Fprintf(&b, "; %d %s on request paths through a func field that syncio followed to none of the functions stored there (first at %s, where %s), so what runs behind %s is unseen: mark the functions stored there //syncio:handler, or pass -roots 'func(T)' with their parameter type (-roots-report lists each field's types)",
				n, plural(n, "call"), shortPos(short, u.Pos), u.Slot, verb(n, "it", "them"))
		}
		if n := len(cut); n > 0 {
			u := cut[0]
			fmt.Fprintf(&b, "; %d %s on request paths that syncio followed only in part, cut by a bound (first at %s, where %s), so what runs behind the rest is unseen (-roots-report lists %s under unfollowed_calls, \"partial\": true)",
				n, plural(n, "call"), shortPos(short, u.Pos), u.Slot, verb(n, "it", "each"))
		}
	}
	fmt.Fprintf(&b, "; %d registration %s", len(rep.Registrations), plural(len(rep.Registrations), "call"))
	switch n := len(rep.Unresolved); {
	case len(rep.Registrations) == 0:
	case n == 0:
		b.WriteString(", every handler resolved")
	default:
		var at []string
		for i, r := range rep.Unresolved {
			if i == maxShown {
				at = append(at, "…")
				break
			}
			at = append(at, shortPos(short, r.Pos))
		}
		fmt.Fprintf(&b, ", %d with a handler syncio could not resolve to a function (%s)", n, strings.Join(at, ", "))
	}
	return b.String()
}

// shortPos is pos as file:line, the file shortened by short.
func shortPos(short func(string) string, pos string) string {
	f, l, _ := splitPos(pos)
	if short != nil {
		f = short(f)
	}
	if l == 0 {
		return f
	}
	return f + ":" + strconv.Itoa(l)
}

// ShortPos is pos (file:line:col) as file:line, the file shortened by
// short, or by its base name when short is nil.
func ShortPos(short func(string) string, pos string) string {
	if short == nil {
		short = filepath.Base
	}
	return shortPos(short, pos)
}

// counts is "a 3, b 1": how many of rs have each key, most first.
func counts(rs []Root, key func(Root) string) string {
	n := map[string]int{}
	for _, r := range rs {
		n[key(r)]++
	}
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if n[keys[i]] != n[keys[j]] {
			return n[keys[i]] > n[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + strconv.Itoa(n[k])
	}
	return strings.Join(parts, ", ")
}

// plural is word for n of it: "root", "roots".
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// verb is one for a count of 1 and many otherwise.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ClearReached clears Unfollowed on every root that has a finding inside
// it (inside reports whether a file:line:col position lies in [pos, end]):
// dispatch may report a root's findings from another package, after the
// root's own package said it reached nothing.
func (rep *Report) ClearReached(found []string) {
	for i, r := range rep.Roots {
		if r.Unfollowed == "" || r.End == "" {
			continue
		}
		f, l, c := splitPos(r.Pos)
		ef, el, ec := splitPos(r.End)
		for _, p := range found {
			pf, pl, pc := splitPos(p)
			if pf == f && pf == ef && (pl > l || pl == l && pc >= c) && (pl < el || pl == el && pc <= ec) {
				rep.Roots[i].Unfollowed = ""
				break
			}
		}
	}
}
