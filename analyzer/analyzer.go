package analyzer

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Name is the analyzer's name, as used by drivers and golangci-lint.
const Name = "syncio"

const doc = `report blocking I/O and uncancellable waits on HTTP request paths

syncio finds request roots (net/http, gin, echo, fiber and gRPC handlers and
functions marked //syncio:handler) and reports calls on their paths that block
without the request's context (SIO001), drop the request context (SIO002),
hold a mutex across I/O (SIO003), build clients or pools per request
(SIO004), wait with no ctx.Done() escape (SIO005) or do file I/O (SIO006,
opt-in). Helpers are followed across packages through facts; a finding is
reported at the root's call with the chain. Suppress with
//syncio:ignore SIO00N -- reason; ignores that hide nothing are reported.`

// Analyzer is the syncio analyzer with the default configuration.
var Analyzer = New(DefaultConfig())

// New returns a syncio analyzer for cfg. The returned analyzer owns a copy
// of cfg, which its flags (-rules) may change before it runs.
func New(cfg Config) *analysis.Analyzer {
	c := cfg.clone()
	a := &analysis.Analyzer{
		Name: Name,
		Doc:  doc,
		URL:  "https://github.com/syncio/syncio/blob/main/docs/rules/",
		// No Requires: bodies are walked with ast.Inspect, and an
		// inspect.Analyzer dependency would build an inspector for every
		// package in the graph, the standard library included.
		FactTypes: []analysis.Fact{new(blocksFact)},
		Run:       func(pass *analysis.Pass) (any, error) { return run(pass, c) },
	}
	registerFlags(&a.Flags, c)
	return a
}

// fnSummary is what one function body does, before callees are resolved.
type fnSummary struct {
	fn      *types.Func // nil for func literals
	name    string      // display name of a root
	root    rootKind
	sig     *types.Signature
	items   []item
	ignores []*ignore // the doc comment's //syncio:ignore directives
	result  *finding  // set when a non-root function blocks
	// byRule is the highest-ranked path of each rule the function leads
	// to; result.more is filled from it once the fixpoint is reached.
	byRule map[string]*finding
}

// summary returns the function's result with the other rules' paths
// attached, or nil.
func (s *fnSummary) summary() *finding {
	if s.result == nil {
		return nil
	}
	f := *s.result
	f.more = nil
	rules := make([]string, 0, len(s.byRule))
	for rule := range s.byRule {
		if rule != f.rule {
			rules = append(rules, rule)
		}
	}
	sort.Strings(rules)
	for _, rule := range rules {
		m := *s.byRule[rule]
		m.more = nil
		f.more = append(f.more, &m)
	}
	return &f
}

// item is one place in a body that may block: a blocking operation (term)
// or a call to a function that may block (local or ext).
type item struct {
	pos, end token.Pos
	call     *ast.CallExpr
	term     *finding    // direct blocking operation
	local    *types.Func // same-package callee
	ext      *blocksFact // other-package callee that blocks
	name     string      // callee display name for local/ext
	fixKey   string      // SIO001 table key, for suggested fixes
	fixArg   ast.Expr    // SIO002: context.Background()/TODO() argument to replace
	lock     string      // a mutex held at the item (SIO003), see lockRegion
	gormRoot ast.Expr    // SIO001 gorm chain: where .WithContext(ctx) goes
}

type runner struct {
	pass    *analysis.Pass
	cfg     *Config
	dirs    *directives
	byFunc  map[*types.Func]*fnSummary
	assigns map[*ast.CallExpr]*ast.AssignStmt
	files   map[string]*token.File // lazily built, for cross-package sites
	src     map[string][]byte
	// thirdParty is set for packages of dependency modules (isThirdParty):
	// their channels are their own synchronisation, and a context they
	// drop into an interface method is not evidence of I/O.
	thirdParty bool
}

func run(pass *analysis.Pass, cfg *Config) (any, error) {
	r := &runner{
		pass:    pass,
		cfg:     cfg,
		byFunc:  map[*types.Func]*fnSummary{},
		assigns: map[*ast.CallExpr]*ast.AssignStmt{},
		src:     map[string][]byte{},
	}
	if inGOROOT(pass) {
		// The standard library's blocking APIs are in the SIO001 table and
		// are judged at the caller; its internals (runtime channels and the
		// like) are not request paths and would make everything "block".
		return nil, nil
	}
	r.thirdParty = isThirdParty(pass)
	var files []*ast.File
	for _, f := range pass.Files {
		if tf := pass.Fset.File(f.Pos()); !cfg.Tests && tf != nil && strings.HasSuffix(tf.Name(), "_test.go") {
			continue // tests are rarely request paths; Config.Tests opts in
		}
		files = append(files, f)
	}
	r.dirs = newDirectives(pass.Fset, files)
	r.reportBadIgnores()

	var decls, roots []*fnSummary
	// litRoots adds the handler literals under n (router arguments,
	// http.HandlerFunc conversions, …); they inherit the enclosing
	// function's doc-comment ignores.
	litRoots := func(n ast.Node, ignores []*ignore) {
		ast.Inspect(n, func(n ast.Node) bool {
			lit, ok := n.(*ast.FuncLit)
			if !ok {
				return true
			}
			sig, _ := pass.TypesInfo.TypeOf(lit).(*types.Signature)
			k := signatureRoot(sig)
			if k == notRoot && r.patternRoot(sig) {
				k = rootCustom
			}
			if k != notRoot {
				s := &fnSummary{root: k, sig: sig, name: "func literal", ignores: ignores}
				s.items = r.collect(sig, lit.Body)
				roots = append(roots, s)
			}
			return true
		})
	}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				litRoots(d, nil)
				continue
			}
			if fd.Body == nil {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			s := &fnSummary{fn: fn, root: declRoot(fd, fn, r.dirs), ignores: r.dirs.funcIgnores(fd.Doc), name: declName(fd, fn)}
			if fn != nil {
				s.sig, _ = fn.Type().(*types.Signature)
				if s.root == notRoot && r.configRoot(fn, s.sig) {
					s.root = rootCustom
				}
				r.byFunc[fn] = s
			}
			s.items = r.collect(s.sig, fd.Body)
			decls = append(decls, s)
			if s.root != notRoot {
				roots = append(roots, s)
			}
			litRoots(fd.Body, s.ignores)
		}
	}

	// Fixpoint over the package's call graph: a function's summary is its
	// highest-ranked item, plus the highest-ranked path of every other
	// rule. Ranks only grow and are bounded, and there are few rules, so
	// it terminates, recursion included.
	for changed := true; changed; {
		changed = false
		for _, s := range decls {
			if s.root != notRoot {
				continue
			}
			for _, it := range s.items {
				fs := r.resolveAt(s, it)
				if len(fs) == 0 {
					continue
				}
				if f := fs[0]; s.result == nil || f.rank() > s.result.rank() {
					s.result = f
					changed = true
				}
				for _, f := range fs {
					if f.rule == "" {
						continue
					}
					if old := s.byRule[f.rule]; old == nil || f.rank() > old.rank() {
						if s.byRule == nil {
							s.byRule = map[string]*finding{}
						}
						s.byRule[f.rule] = f
						changed = true
					}
				}
			}
		}
	}
	for _, s := range decls {
		if s.root == notRoot && s.result != nil && s.fn != nil && !entryPoint(s.fn) &&
			!r.cfg.Allow[qualified(s.fn, s.fn.Pkg().Path())] {
			pass.ExportObjectFact(s.fn, s.summary().fact())
		}
	}
	for _, s := range roots {
		for _, it := range s.items {
			r.report(s, it, r.resolveAt(s, it))
		}
	}
	r.reportStale(decls)
	return nil, nil
}

// inGOROOT reports whether the package is part of the Go distribution.
func inGOROOT(pass *analysis.Pass) bool {
	root := build.Default.GOROOT
	if root == "" {
		return false
	}
	prefix := filepath.Join(root, "src") + string(filepath.Separator)
	for _, f := range pass.Files {
		if tf := pass.Fset.File(f.Pos()); tf != nil && strings.HasPrefix(tf.Name(), prefix) {
			return true
		}
	}
	return false
}

// isThirdParty reports whether the package belongs to a dependency rather
// than to the code under analysis. Every driver (checker, go vet's
// unitchecker, golangci-lint) fills pass.Module from go list: the main and
// workspace modules have no version, a dependency has one whether it is
// read from the module cache or from vendor/ (modules.txt), and whatever
// GOMODCACHE or -mod say. A dependency replaced by a local directory is
// the user's own code in all but name, so it counts as first-party; go vet
// before Go 1.27 does not pass Replace, so there it counts as third-party.
// Without module information (GOPATH mode) the file paths decide.
func isThirdParty(pass *analysis.Pass) bool {
	if m := pass.Module; m != nil && m.Path != "" {
		if m.Main || (m.Replace != nil && m.Replace.Version == "") {
			return false
		}
		return m.Version != ""
	}
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.Pos())
		if tf == nil {
			continue
		}
		name := filepath.ToSlash(tf.Name())
		if strings.Contains(name, "/vendor/") {
			return true
		}
		if _, rest, ok := strings.Cut(name, "/pkg/mod/"); ok && strings.Contains(rest, "@") {
			return true
		}
	}
	return false
}

// entryPoint reports whether fn is main.main or an init function: nothing
// calls them, so they export no fact.
func entryPoint(fn *types.Func) bool {
	if recvOf(fn) != nil {
		return false
	}
	return fn.Name() == "init" || (fn.Name() == "main" && fn.Pkg() != nil && fn.Pkg().Name() == "main")
}

func (r *runner) suppressed(s *fnSummary, it item, rule string) bool {
	return funcSuppressed(s.ignores, rule) || r.dirs.suppressed(it.pos, rule)
}

// lockable are the rules whose operation blocks, so holding a lock across
// it is SIO003; "" is I/O that is no finding by itself.
var lockable = map[string]bool{"": true, "SIO001": true, "SIO002": true, "SIO005": true}

// resolveAt returns what an item of s leads to, after configuration and
// suppressions: rules that are off or ignored are dropped (an ignored
// operation still counts as I/O under a lock), a lock held at the item is
// added. The first finding is the item's main path (the callee's summary),
// the others are the paths of its other rules; none means the item
// neither blocks nor does I/O.
func (r *runner) resolveAt(s *fnSummary, it item) []*finding {
	f := r.resolve(it)
	if f == nil {
		return nil
	}
	var out []*finding
	for i, p := range f.all() {
		if g := r.applyConfig(s, it, p); g != nil && (i == 0 || g.rule != "") {
			out = append(out, g)
		}
	}
	return out
}

// applyConfig is resolveAt for one path.
func (r *runner) applyConfig(s *fnSummary, it item, f *finding) *finding {
	g := *f
	if g.rule != "" && (!r.cfg.enabled(g.rule) || r.suppressed(s, it, g.rule)) {
		if !lockable[g.rule] {
			return nil
		}
		g.rule = ""
	}
	if it.lock != "" && g.lock == "" && lockable[f.rule] {
		g.lock = it.lock
	}
	if g.lock != "" && (!r.cfg.enabled("SIO003") || r.suppressed(s, it, "SIO003")) {
		g.lock = ""
	}
	return &g
}

// resolve returns the blocking path behind an item, or nil.
func (r *runner) resolve(it item) *finding {
	switch {
	case it.term != nil:
		return it.term
	case it.ext != nil:
		f := r.fromFact(it.ext)
		for i := range it.ext.More {
			f.more = append(f.more, r.fromFact(&it.ext.More[i]))
		}
		return f.prepend(it.name, r.site(it.pos), it.pos)
	case it.local != nil:
		callee := r.byFunc[it.local]
		if callee == nil || callee.root != notRoot || callee.result == nil {
			return nil
		}
		return callee.summary().prepend(it.name, r.site(it.pos), it.pos)
	}
	return nil
}

// fromFact is the finding of one path of another package's fact.
func (r *runner) fromFact(bf *blocksFact) *finding {
	f := &finding{rule: bf.Rule, lock: bf.Lock, chain: bf.Chain, sites: bf.Sites, detail: bf.Detail, hint: bf.Hint}
	for _, s := range bf.Sites {
		f.poses = append(f.poses, r.sitePos(s))
	}
	return f
}

func (r *runner) site(pos token.Pos) string {
	p := r.pass.Fset.Position(pos)
	return p.Filename + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
}

// sitePos maps a "file:line:col" site back to a position when the file is
// part of this pass's file set (drivers that load dependencies from source;
// under go vet only the line survives, see below), and to token.NoPos
// otherwise.
func (r *runner) sitePos(site string) token.Pos {
	if r.files == nil {
		r.files = map[string]*token.File{}
		r.pass.Fset.Iterate(func(f *token.File) bool {
			r.files[f.Name()] = f
			return true
		})
	}
	rest, colStr, ok1 := cutLast(site)
	name, lineStr, ok2 := cutLast(rest)
	if !ok1 || !ok2 {
		return token.NoPos
	}
	line, err1 := strconv.Atoi(lineStr)
	col, err2 := strconv.Atoi(colStr)
	f := r.files[name]
	if err1 != nil || err2 != nil || f == nil || line < 1 || line > f.LineCount() {
		return token.NoPos
	}
	start := f.LineStart(line)
	if pos := start + token.Pos(col-1); int(pos) <= f.Base()+f.Size() {
		if p := r.pass.Fset.Position(pos); p.Line == line && p.Column == col {
			return pos
		}
	}
	// Export-data importers register stand-in files whose lines are one
	// byte long: the line is right but columns do not exist. Keep the line.
	if r.pass.Fset.Position(start).Line == line {
		return start
	}
	return token.NoPos
}

func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// report emits the diagnostics for a root's item: one per rule of the
// operations it leads to, and one for a lock held across them (the first
// path that holds one).
func (r *runner) report(s *fnSummary, it item, fs []*finding) {
	emitted := map[string]bool{}
	for _, f := range fs {
		if f.rule != "" && !emitted[f.rule] {
			emitted[f.rule] = true
			r.emit(s, it, f, f.rule, f.detail, f.hint)
		}
		if f.lock != "" && !emitted["SIO003"] {
			emitted["SIO003"] = true
			r.reportLock(s, it, f)
		}
	}
}

// reportLock emits the SIO003 diagnostic for a lock held across f.
func (r *runner) reportLock(s *fnSummary, it item, f *finding) {
	detail := f.detail
	if detail == "" {
		detail = "does I/O"
	}
	detail += " while " + f.lock + " is held"
	hint := "every request that needs the lock queues behind this I/O, so requests are served one at a time; " +
		"release the lock before the call (copy what you need under it), or use a per-key lock or singleflight"
	if strings.Contains(f.lock, readLocked) {
		hint = "readers still run together, but a writer waiting for the lock blocks every new reader behind this I/O; " +
			"release the lock before the call (copy what you need under it)"
	}
	r.emit(s, it, f, "SIO003", detail, hint)
}

func (r *runner) emit(s *fnSummary, it item, f *finding, rule, detail, hint string) {
	var msg string
	last := f.chain[len(f.chain)-1]
	if len(f.chain) == 1 {
		msg = last + " " + detail
	} else {
		msg = s.name + " calls " + strings.Join(f.chain, " → ") + ", which " + detail
	}
	msg += "; " + hint + " (" + rule + ")"
	d := analysis.Diagnostic{
		Pos:      it.pos,
		End:      it.end,
		Category: rule,
		URL:      RuleURL(rule),
		Message:  msg,
	}
	if len(f.chain) > 1 {
		for i, name := range f.chain {
			if i >= len(f.poses) || !f.poses[i].IsValid() {
				continue
			}
			m := "calls " + name
			if i == len(f.chain)-1 {
				m = name + " " + detail
			}
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: f.poses[i], Message: m})
		}
	}
	if it.term != nil && rule == it.term.rule && rule != "SIO003" {
		d.SuggestedFixes = r.fixes(s, it)
	}
	r.pass.Report(d)
}

// reportStale reports //syncio:ignore directives that hid nothing, once
// every item has been resolved. Items of helpers past the one that set the
// summary are resolved here too, because their ignores count as used.
func (r *runner) reportStale(decls []*fnSummary) {
	for _, s := range decls {
		if s.root != notRoot {
			continue
		}
		for _, it := range s.items {
			r.resolveAt(s, it)
		}
	}
	for _, ig := range r.dirs.all {
		if ig.used || ig.bad {
			continue
		}
		judgeable := true
		for _, id := range ig.ids {
			if !r.cfg.enabled(id) {
				judgeable = false // a disabled rule reports nothing to hide
			}
		}
		if !judgeable {
			continue
		}
		rule := ig.ids[0]
		r.pass.Report(analysis.Diagnostic{
			Pos: ig.pos, End: ig.end, Category: rule, URL: RuleURL(rule),
			Message: "stale syncio:ignore: no " + strings.Join(ig.ids, "/") + " finding here to suppress; remove it (" + rule + ")",
		})
	}
}

// reportBadIgnores reports //syncio:ignore comments without a reason or
// without valid rule IDs. They are reported under the first rule they
// name (SIO000 when they name none), so SARIF keeps one rule per ID.
func (r *runner) reportBadIgnores() {
	for _, ig := range r.dirs.all {
		rule := "SIO000"
		var unknown []string
		for _, id := range ig.ids {
			if _, ok := RuleByID(id); ok {
				if rule == "SIO000" {
					rule = id
				}
			} else {
				unknown = append(unknown, id)
			}
		}
		var problem string
		switch {
		case len(ig.ids) == 0:
			problem = "syncio:ignore names no rule; write //syncio:ignore SIO001 -- why this is safe"
		case len(unknown) > 0:
			problem = "syncio:ignore names unknown rule " + strings.Join(unknown, ", ") + "; use IDs from docs/rules"
		case ig.reason == "":
			problem = "syncio:ignore needs a reason; write //syncio:ignore " + strings.Join(ig.ids, ",") + " -- why this is safe"
		default:
			continue
		}
		ig.bad = true
		d := analysis.Diagnostic{Pos: ig.pos, End: ig.end, Category: rule, Message: problem + " (" + rule + ")"}
		if rule != "SIO000" {
			d.URL = RuleURL(rule)
		}
		r.pass.Report(d)
	}
}

// declName is the name a root has in messages: F, T.M or (*T).M.
func declName(fd *ast.FuncDecl, fn *types.Func) string {
	if fn == nil {
		return fd.Name.Name
	}
	q := qualified(fn, "")
	return strings.TrimPrefix(q, ".")
}

// qualified names fn as prefix.F, prefix.T.M or prefix.(*T).M.
func qualified(fn *types.Func, prefix string) string {
	sig, _ := fn.Type().(*types.Signature)
	if sig != nil && sig.Recv() != nil {
		t := types.Unalias(sig.Recv().Type())
		ptr := false
		if p, ok := t.(*types.Pointer); ok {
			t, ptr = types.Unalias(p.Elem()), true
		}
		if n, ok := t.(*types.Named); ok && n.Obj() != nil {
			if ptr {
				return prefix + ".(*" + n.Obj().Name() + ")." + fn.Name()
			}
			return prefix + "." + n.Obj().Name() + "." + fn.Name()
		}
	}
	return prefix + "." + fn.Name()
}

// displayName names a callee in a chain: pkgname.F for project code.
func displayName(fn *types.Func) string {
	if fn.Pkg() == nil {
		return fn.Name()
	}
	return qualified(fn, fn.Pkg().Name())
}

// terminalName names the call that ends a chain: by import path for the
// standard library (database/sql.(*DB).QueryContext, like the SIO001
// table), by package name for everything else.
func terminalName(fn *types.Func) string {
	path := fn.Pkg().Path()
	if first, _, _ := strings.Cut(path, "/"); !strings.Contains(first, ".") {
		return qualified(fn, path)
	}
	return displayName(fn)
}

// collect walks a body in source order and records what may block. The
// body of a go statement and func literals that are not called on the spot
// are off the request path and skipped.
func (r *runner) collect(sig *types.Signature, body *ast.BlockStmt) []item {
	if body == nil {
		return nil
	}
	info := r.pass.TypesInfo
	flow := newCtxFlow(info, sig, body)
	invoked := map[*ast.FuncLit]bool{}
	inSelect := map[ast.Node]bool{}
	var items []item
	term := func(rule string, pos, end token.Pos, name, detail, hint string) item {
		return item{pos: pos, end: end, term: &finding{
			rule: rule, chain: []string{name}, sites: []string{r.site(pos)}, poses: []token.Pos{pos},
			detail: detail, hint: hint,
		}}
	}
	// Every blocking operation is recorded whether or not its rule is on:
	// resolveAt applies the configuration, and a disabled rule's operation
	// still blocks under a lock (SIO003).
	//
	// Channel operations in third-party code are the library's own
	// synchronisation (a buffer it just filled, a generator goroutine);
	// its waits on the outside world are I/O, which the tables describe.
	wait := !r.thirdParty
	gorm := newGormFlow(info, body)
	// Local variables holding x.Done() (done := ctx.Done()) are an escape
	// as good as the call itself.
	doneVars := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, rhs := range as.Rhs {
				if id, ok := as.Lhs[i].(*ast.Ident); ok && isDoneCall(rhs) {
					if obj := info.ObjectOf(id); obj != nil {
						doneVars[obj] = true
					}
				}
			}
		}
		return true
	})
	isDone := func(e ast.Expr) bool {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			return doneVars[info.ObjectOf(id)]
		}
		return isDoneCall(e)
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.FuncLit:
			return invoked[n]
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
					r.assigns[call] = n
				}
			}
		case *ast.CallExpr:
			if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
				invoked[lit] = true
			}
			if it, ok := r.classifyCall(n, flow, gorm); ok {
				items = append(items, it)
			}
		case *ast.CompositeLit:
			if isNamed(info.TypeOf(n), false, pathHTTP, "Transport") {
				items = append(items, term("SIO004", n.Pos(), n.End(), "http.Transport{}",
					fmt.Sprintf(clientDetail, "an HTTP transport (connection pool)"), clientHint))
			}
		case *ast.SelectStmt:
			escape := false
			for _, st := range n.Body.List {
				cc, ok := st.(*ast.CommClause)
				if !ok {
					continue
				}
				if cc.Comm == nil {
					escape = true
					continue
				}
				if op := commOp(cc.Comm); op != nil {
					inSelect[op] = true
					if u, ok := op.(*ast.UnaryExpr); ok && isDone(u.X) {
						escape = true
					}
				}
			}
			if wait && !escape {
				items = append(items, term("SIO005", n.Select, n.Select+token.Pos(len("select")), "select",
					"has no ctx.Done() case and no default, so it waits with no way to cancel",
					"add a case <-ctx.Done() that returns ctx.Err()"))
			}
		case *ast.SendStmt:
			if wait && !inSelect[n] {
				items = append(items, term("SIO005", n.Pos(), n.End(), "channel send",
					"waits with no ctx.Done() escape", "send in a select with a case <-ctx.Done()"))
			}
		case *ast.UnaryExpr:
			if wait && n.Op == token.ARROW && !inSelect[n] && !isDone(n.X) {
				items = append(items, term("SIO005", n.Pos(), n.End(), "channel receive",
					"waits with no ctx.Done() escape", "receive in a select with a case <-ctx.Done()"))
			}
		case *ast.RangeStmt:
			if t := info.TypeOf(n.X); wait && t != nil {
				if _, ok := t.Underlying().(*types.Chan); ok {
					items = append(items, term("SIO005", n.For, n.X.End(), "range over channel",
						"waits with no ctx.Done() escape", "receive in a loop around a select with a case <-ctx.Done()"))
				}
			}
		}
		return true
	})
	if regions := r.lockRegions(body); len(regions) > 0 {
		for i := range items {
			items[i].lock = heldAt(regions, items[i].pos)
		}
	}
	return items
}

// commOp returns the channel operation of a select case.
func commOp(st ast.Stmt) ast.Node {
	switch st := st.(type) {
	case *ast.SendStmt:
		return st
	case *ast.ExprStmt:
		if u, ok := ast.Unparen(st.X).(*ast.UnaryExpr); ok {
			return u
		}
	case *ast.AssignStmt:
		if len(st.Rhs) == 1 {
			if u, ok := ast.Unparen(st.Rhs[0]).(*ast.UnaryExpr); ok {
				return u
			}
		}
	}
	return nil
}

// isDoneCall reports whether e is x.Done(): waiting on it is the
// cancellation escape itself.
func isDoneCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Done"
}

// classifyCall turns a call into an item when it may block.
func (r *runner) classifyCall(call *ast.CallExpr, flow *ctxFlow, gorm *gormFlow) (item, bool) {
	info := r.pass.TypesInfo
	tv, ok := info.Types[call.Fun]
	if !ok || tv.IsType() || tv.IsBuiltin() || tv.Type == nil {
		return item{}, false
	}
	sig, _ := tv.Type.Underlying().(*types.Signature)
	fn := typeutil.StaticCallee(info, call)
	if fn != nil {
		fn = fn.Origin()
	}
	var key string
	if fn != nil && fn.Pkg() != nil {
		key = qualified(fn, fn.Pkg().Path())
		if r.cfg.Allow[key] {
			return item{}, false // declared safe: neither reported nor propagated
		}
	}
	pos, end := call.Pos(), call.End()
	mk := func(rule, name, detail, hint string) item {
		return item{pos: pos, end: end, call: call, term: &finding{
			rule: rule, chain: []string{name}, sites: []string{r.site(pos)}, poses: []token.Pos{pos},
			detail: detail, hint: hint,
		}}
	}
	if sig != nil && sig.Params().Len() > 0 && len(call.Args) > 0 &&
		isContextType(sig.Params().At(0).Type()) &&
		(fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pathContext) &&
		(!r.thirdParty || fn != nil) {
		if ci := flow.classify(call.Args[0]); ci.class == ctxDropped {
			name := types.ExprString(call.Fun)
			if fn != nil && fn.Pkg() != nil {
				name = terminalName(fn)
			}
			arg := ast.Unparen(call.Args[0])
			given := ci.desc
			if id, ok := arg.(*ast.Ident); ok {
				given = id.Name + " (" + ci.desc + ")"
			}
			it := mk("SIO002", name, "is given "+given+" instead of the request context",
				"pass the request's context, or context.WithoutCancel(ctx) for work that must outlive the request")
			if c, ok := arg.(*ast.CallExpr); ok && (ci.desc == "context.Background()" || ci.desc == "context.TODO()") {
				it.fixArg = c
			}
			return it, true
		}
	}
	blocking := func(key string, rep Replacement) item {
		verb := rep.Verb
		if verb == "" {
			verb = "blocks without the request context"
		}
		it := mk("SIO001", key, verb, "use "+rep.Use)
		it.fixKey = key
		return it
	}
	if fn == nil {
		// An interface method is matched by its declaration (redigo's
		// redis.Conn.Do), whatever value is behind it: the interface is
		// the API contract, and every implementation does the round trip.
		if im := interfaceMethod(info, call); im != nil {
			ikey := qualified(im, im.Pkg().Path())
			if rep, ok := r.cfg.Blocking[ikey]; ok && !r.cfg.Allow[ikey] {
				return blocking(ikey, rep), true
			}
		}
	}
	if fn == nil || fn.Pkg() == nil {
		return item{}, false // interface dispatch or an unknown func value: no guessing
	}
	if rep, ok := r.cfg.Blocking[key]; ok && !ctxRouted(info, call, key) {
		return blocking(key, rep), true
	}
	if hint, ok := waitFuncs[key]; ok {
		return mk("SIO005", key, "waits with no way to cancel it", hint), true
	}
	if path := gormReceiver(fn); path != "" && gormFinishers[fn.Name()] {
		sel, _ := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if path == pathGormV1 {
			return mk("SIO001", displayName(fn), "runs a query that cannot be cancelled: gorm v1 has no context support",
				"migrate to gorm.io/gorm and chain db.WithContext(ctx), or bound the query with a statement timeout"), true
		}
		if sel != nil && gorm.state(sel.X, 0) == gormNoCtx {
			root := gormChainRoot(info, sel.X)
			it := mk("SIO001", displayName(fn), "runs a query on a *gorm.DB chain that never calls WithContext, so the request context is not used",
				"start the chain with WithContext: "+types.ExprString(root)+".WithContext(ctx)…")
			it.gormRoot = root
			return it, true
		}
		// With a context (or one we cannot see) the query is still I/O.
		return item{pos: pos, end: end, call: call, term: &finding{
			chain: []string{displayName(fn)}, sites: []string{r.site(pos)}, poses: []token.Pos{pos},
		}}, true
	}
	if what := clientCtor(fn, key); what != "" {
		return mk("SIO004", terminalName(fn), fmt.Sprintf(clientDetail, what), clientHint), true
	}
	if isFileIO(info, call, key) {
		return mk("SIO006", key, fileDetail, fileHint), true
	}
	if fn.Pkg() == r.pass.Pkg {
		return item{pos: pos, end: end, call: call, local: fn, name: displayName(fn)}, true
	}
	var f blocksFact
	if r.pass.ImportObjectFact(fn, &f) {
		return item{pos: pos, end: end, call: call, ext: &f, name: displayName(fn)}, true
	}
	if isIOCall(fn, sig, key, r.pass.Pkg.Path()) {
		// I/O that honours its context: a finding only under a lock.
		return item{pos: pos, end: end, call: call, term: &finding{
			chain: []string{terminalName(fn)}, sites: []string{r.site(pos)}, poses: []token.Pos{pos},
		}}, true
	}
	return item{}, false
}

// interfaceMethod returns the method of a named interface type that call
// invokes through dynamic dispatch, or nil.
func interfaceMethod(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	recv := recvOf(fn)
	if recv == nil {
		return nil
	}
	if _, ok := recv.Type().Underlying().(*types.Interface); !ok {
		return nil
	}
	if _, ok := types.Unalias(recv.Type()).(*types.Named); !ok {
		return nil
	}
	return fn
}
