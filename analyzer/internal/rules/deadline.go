package rules

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/constant"
	"go/format"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// SIO008 missing-deadline: the edges of a service that wait with no bound.
//
// Three of its four parts are sites of the package, judged without a
// request path (Edges): an http.Server literal (or new(http.Server)) with
// neither ReadHeaderTimeout nor ReadTimeout, or with neither IdleTimeout
// nor ReadTimeout (net/http uses ReadTimeout for either when it is zero);
// a call that serves with a zero-timeout server (knowledge's serve rows:
// http.ListenAndServe, gin's Run; echo's Start serves the receiver's
// e.Server, judged by the package's stores); and a net.Dialer literal with
// neither Timeout nor Deadline, unless its every use in the function is a
// DialContext given a context with a deadline, or a tls.Dialer with no
// NetDialer. A field is set
// when the literal gives it a value that is not the constant zero, or
// when any function of the package stores to that field of any value of
// the type (srv.ReadHeaderTimeout = …, in the same function or in one
// the server is handed to): the rule errs to silence, since a store it
// cannot tie to one value may be the one that configures it. Every
// literal in the program's own non-test code counts as a server that
// serves: one is built for nothing else. WriteTimeout and a body's
// ReadTimeout are not asked for: a streaming handler sets its own with
// http.ResponseController, which no handler can do for the wait on a
// request's headers or between keep-alive requests.
//
// The fourth is on the request path (Deadlines.Call): an
// (*http.Client).Do whose client, followed to where it is built (a local,
// a package variable, a field, http.DefaultClient), has no Timeout and
// no transport literal with a ResponseHeaderTimeout, and whose request's
// context, followed through the body, has no deadline (r.Context(),
// gin's c.Request, echo's c.Request(), context.Background(), a context
// parameter, a request parameter). A
// client whose construction is not seen (a parameter, a constructor's
// result, another package's field) is no finding, and neither is a
// dependency's own client. A call that hands its callee a context or
// request with a deadline (context.WithTimeout,
// WithDeadline, and contexts derived from them) bounds what the callee
// sends (Deadlines.Mark): SIO008 does not pass through it. A deadline a
// middleware sets on the request's context, or http.TimeoutHandler, is
// not seen.

// DeadlineRule is SIO008's ID.
const DeadlineRule = "SIO008"

// The values the fixes write, and why: docs/rules/SIO008.md.
const (
	headerTimeout = "10 * %s.Second"
	idleTimeout   = "120 * %s.Second"
	dialTimeout   = "30 * %s.Second" // net/http's DefaultTransport dials with 30 s
)

const (
	clientDeadlineDetail = "sends with an http.Client that has no Timeout, under a context with no deadline: a peer that accepts the connection and never answers holds this request, its goroutine and the connection for ever"
	clientDeadlineHint   = "set Timeout where the client is built, or send under context.WithTimeout(r.Context(), d)"
)

// Edge is a SIO008 finding at a site of the package: a server, a
// serving call or a dialer, which no request path leads to.
type Edge struct {
	Pos, End token.Pos
	Message  string
	Fixes    []analysis.SuggestedFix
}

// deadlineIndex is what the package stores, read once: the fields of
// the deadline types stored anywhere ("net/http.ReadHeaderTimeout"), and
// the values given to each variable and field, for finding where a
// client is built.
type deadlineIndex struct {
	stores map[string]bool
	values map[types.Object][]ast.Expr // a nil entry: a value not seen (a tuple's)
}

// deadlineFields are the fields that bound a wait, by package path and
// name: unique names in their packages.
var deadlineFields = map[string]bool{
	"net/http.ReadHeaderTimeout": true, "net/http.ReadTimeout": true, "net/http.IdleTimeout": true,
	"net/http.Timeout": true, "net.Timeout": true, "net.Deadline": true, "crypto/tls.NetDialer": true,
}

func (p *Pkg) deadlines() *deadlineIndex {
	if p.dl != nil {
		return p.dl
	}
	d := &deadlineIndex{stores: map[string]bool{}, values: map[types.Object][]ast.Expr{}}
	p.dl = d
	objOf := func(e ast.Expr) types.Object {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			return p.Info.ObjectOf(e)
		case *ast.SelectorExpr:
			return p.Info.ObjectOf(e.Sel)
		}
		return nil
	}
	for _, f := range p.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					obj := objOf(l)
					if obj == nil {
						continue
					}
					var v ast.Expr
					if len(n.Lhs) == len(n.Rhs) {
						v = n.Rhs[i]
					}
					d.values[obj] = append(d.values[obj], v)
					if fv, ok := obj.(*types.Var); ok && fv.IsField() && fv.Pkg() != nil && !p.isZero(v) {
						if k := fv.Pkg().Path() + "." + fv.Name(); deadlineFields[k] {
							d.stores[k] = true
						}
					}
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					var v ast.Expr
					if len(n.Names) == len(n.Values) {
						v = n.Values[i]
					}
					if obj := p.Info.ObjectOf(name); obj != nil && (v != nil || len(n.Values) > 0) {
						d.values[obj] = append(d.values[obj], v)
					}
				}
			case *ast.KeyValueExpr:
				if key, ok := n.Key.(*ast.Ident); ok {
					if fv, ok := p.Info.Uses[key].(*types.Var); ok && fv.IsField() {
						d.values[fv] = append(d.values[fv], n.Value)
					}
				}
			}
			return true
		})
	}
	return d
}

// isZero reports whether e is the constant zero (or absent).
func (p *Pkg) isZero(e ast.Expr) bool {
	if e == nil {
		return true
	}
	tv, ok := p.Info.Types[e]
	if ok && tv.Value != nil && tv.Value.Kind() == constant.Int {
		return constant.Sign(tv.Value) == 0
	}
	return false
}

// litFields are the fields a literal sets to something other than zero;
// all is set for a literal without keys.
func (p *Pkg) litFields(lit *ast.CompositeLit) (set map[string]bool, all bool) {
	set = map[string]bool{}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return set, true
		}
		if key, ok := kv.Key.(*ast.Ident); ok && !p.isZero(kv.Value) {
			set[key.Name] = true
		}
	}
	return set, false
}

// Edges are the package's SIO008 sites in files: servers, serving calls
// and dialers with no bound. A dependency's are its own.
func (p *Pkg) Edges(fset *token.FileSet, files []*ast.File) []Edge {
	if p.ThirdParty || !p.Enabled(DeadlineRule) {
		return nil
	}
	var out []Edge
	for _, f := range files {
		timeName := importName(f, "time")
		dialed := p.boundedDialers(f)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				t := p.Info.TypeOf(n)
				switch {
				case named.Is(t, false, knowledge.PathHTTP, "Server"):
					set, all := p.litFields(n)
					if e, ok := p.serverEdge(n.Pos(), n.End(), "http.Server{}", set, all); ok {
						e.Fixes = p.insertFields(fset, n, timeName, set)
						out = append(out, e)
					}
				case named.Is(t, false, "net", "Dialer") && !dialed[n]:
					if e, ok := p.dialerEdge(fset, n, timeName); ok {
						out = append(out, e)
					}
				case named.Is(t, false, "crypto/tls", "Dialer"):
					if set, all := p.litFields(n); !all && !set["NetDialer"] && !p.deadlines().stores["crypto/tls.NetDialer"] {
						out = append(out, Edge{Pos: n.Pos(), End: n.End(), Message: "tls.Dialer{} has no NetDialer, so it dials with a zero net.Dialer: a dial to a peer that does not answer waits as long as the operating system lets a TCP connect hang (minutes); set NetDialer: &net.Dialer{Timeout: 30 * time.Second} (SIO008)"})
					}
				}
			case *ast.CallExpr:
				if e, ok := p.newServer(n); ok {
					out = append(out, e)
				} else if e, ok := p.serveCall(fset, n, timeName); ok {
					out = append(out, e)
				}
			}
			return true
		})
	}
	return out
}

// serverEdge is the finding for a server whose literal sets set (all:
// every field, unkeyed), or nothing.
func (p *Pkg) serverEdge(pos, end token.Pos, name string, set map[string]bool, all bool) (Edge, bool) {
	if all {
		return Edge{}, false
	}
	st := p.deadlines().stores
	has := func(field string) bool { return set[field] || st["net/http."+field] }
	var missing []string
	if !has("ReadHeaderTimeout") && !has("ReadTimeout") {
		missing = append(missing, "ReadHeaderTimeout")
	}
	if !has("IdleTimeout") && !has("ReadTimeout") {
		missing = append(missing, "IdleTimeout")
	}
	if len(missing) == 0 {
		return Edge{}, false
	}
	why := map[string]string{
		"ReadHeaderTimeout": "a client that sends its headers slowly holds a connection and a goroutine for ever",
		"IdleTimeout":       "an idle keep-alive connection is held for ever",
	}
	var whys []string
	for _, m := range missing {
		whys = append(whys, why[m])
	}
	msg := fmt.Sprintf("%s has no %s (nor ReadTimeout): %s; set %s (SIO008)", name,
		strings.Join(missing, " and no "), strings.Join(whys, ", and "), strings.Join(missing, " and "))
	return Edge{Pos: pos, End: end, Message: msg}, true
}

// newServer is the finding for new(http.Server) with no field stored.
func (p *Pkg) newServer(call *ast.CallExpr) (Edge, bool) {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || len(call.Args) != 1 {
		return Edge{}, false
	}
	if _, builtin := p.Info.Uses[id].(*types.Builtin); !builtin || id.Name != "new" {
		return Edge{}, false
	}
	if !named.Is(p.Info.TypeOf(call.Args[0]), false, knowledge.PathHTTP, "Server") {
		return Edge{}, false
	}
	return p.serverEdge(call.Pos(), call.End(), "new(http.Server)", map[string]bool{}, false)
}

// serveCall is the finding for a call of a serve row: it serves with a
// server whose timeouts are all zero.
func (p *Pkg) serveCall(fset *token.FileSet, call *ast.CallExpr, timeName string) (Edge, bool) {
	fn := typeutil.StaticCallee(p.Info, call)
	if fn == nil || fn.Pkg() == nil {
		return Edge{}, false
	}
	key := knowledge.Qualified(fn.Origin(), fn.Pkg().Path())
	field, ok := knowledge.ZeroServers()[key]
	if !ok {
		return Edge{}, false
	}
	name := paths.TerminalName(fn)
	if field != "" {
		// It serves the receiver's field, which the program may have
		// configured: judged by the package's stores, as a server it
		// built with no field set.
		e, ok := p.serverEdge(call.Pos(), call.End(), name+" serves its "+field+", which", map[string]bool{}, false)
		return e, ok
	}
	msg := name + " serves with a server that has no timeouts: a client that sends its headers slowly, or keeps a connection idle, holds a connection and a goroutine for ever; serve from an http.Server with ReadHeaderTimeout and IdleTimeout set (SIO008)"
	return Edge{Pos: call.Pos(), End: call.End(), Message: msg, Fixes: p.serveFix(fset, call, fn, timeName)}, true
}

// serveFix rewrites net/http's package-level serving call as the same
// call on an http.Server literal with the two timeouts, where "time" is
// imported.
func (p *Pkg) serveFix(fset *token.FileSet, call *ast.CallExpr, fn *types.Func, timeName string) []analysis.SuggestedFix {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if timeName == "" || !ok || fn.Pkg().Path() != knowledge.PathHTTP || named.Recv(fn) != nil || call.Ellipsis.IsValid() {
		return nil
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil
	}
	a := make([]string, len(call.Args))
	for i, e := range call.Args {
		var b bytes.Buffer
		if format.Node(&b, fset, e) != nil {
			return nil
		}
		a[i] = b.String()
	}
	var fields, method, args string
	switch {
	case fn.Name() == "ListenAndServe" && len(a) == 2:
		fields, method = "Addr: "+a[0]+", Handler: "+a[1], "ListenAndServe"
	case fn.Name() == "ListenAndServeTLS" && len(a) == 4:
		fields, method, args = "Addr: "+a[0]+", Handler: "+a[3], "ListenAndServeTLS", a[1]+", "+a[2]
	case fn.Name() == "Serve" && len(a) == 2:
		fields, method, args = "Handler: "+a[1], "Serve", a[0]
	case fn.Name() == "ServeTLS" && len(a) == 4:
		fields, method, args = "Handler: "+a[1], "ServeTLS", a[0]+", "+a[2]+", "+a[3]
	default:
		return nil
	}
	text := fmt.Sprintf("(&%s.Server{%s, ReadHeaderTimeout: %s, IdleTimeout: %s}).%s(%s)", pkg.Name, fields,
		fmt.Sprintf(headerTimeout, timeName), fmt.Sprintf(idleTimeout, timeName), method, args)
	return []analysis.SuggestedFix{{
		Message:   "serve from an http.Server with ReadHeaderTimeout and IdleTimeout",
		TextEdits: []analysis.TextEdit{{Pos: call.Pos(), End: call.End(), NewText: []byte(text)}},
	}}
}

// boundedDialers are the net.Dialer literals of f whose every use is a
// DialContext given a context with a deadline in the same body, or a dial
// of a unix socket (a local connect, no remote peer to wait on):
// (&net.Dialer{}).DialContext(ctx, …) inline, or through a local that
// nothing else reads.
func (p *Pkg) boundedDialers(f *ast.File) map[*ast.CompositeLit]bool {
	out := map[*ast.CompositeLit]bool{}
	lit := func(e ast.Expr) *ast.CompositeLit {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		l, _ := e.(*ast.CompositeLit)
		if l != nil && !named.Is(p.Info.TypeOf(l), false, "net", "Dialer") {
			return nil
		}
		return l
	}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		var sig *types.Signature
		if fn, ok := p.Info.Defs[fd.Name].(*types.Func); ok {
			sig = fn.Signature()
		}
		d := p.NewDeadlines(sig, fd.Body)
		locals := map[types.Object]*ast.CompositeLit{}
		uses, bounds := map[types.Object]int{}, map[types.Object]int{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
					if id, ok := n.Lhs[0].(*ast.Ident); ok {
						if l := lit(n.Rhs[0]); l != nil {
							locals[p.Info.ObjectOf(id)] = l
						}
					}
				}
			case *ast.Ident:
				if obj := p.Info.Uses[n]; obj != nil {
					uses[obj]++
				}
			case *ast.CallExpr:
				sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
				if !ok || !p.boundedDial(d, sel.Sel.Name, n.Args) {
					return true
				}
				if l := lit(sel.X); l != nil {
					out[l] = true
				} else if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
					bounds[p.Info.Uses[id]]++
				}
			}
			return true
		})
		for obj, l := range locals {
			if uses[obj] > 0 && uses[obj] == bounds[obj] {
				out[l] = true
			}
		}
	}
	return out
}

// boundedDial reports whether a dial cannot wait on a remote peer for
// ever: DialContext given a context with a deadline, or Dial or
// DialContext of a unix socket.
func (p *Pkg) boundedDial(d *Deadlines, method string, args []ast.Expr) bool {
	network := -1
	switch method {
	case "DialContext":
		if len(args) > 0 && d.ctx(args[0], 0) == bounded {
			return true
		}
		network = 1
	case "Dial":
		network = 0
	}
	if network < 0 || network >= len(args) {
		return false
	}
	tv, ok := p.Info.Types[args[network]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return false
	}
	switch constant.StringVal(tv.Value) {
	case "unix", "unixgram", "unixpacket":
		return true
	}
	return false
}

// dialerEdge is the finding for a net.Dialer literal with neither
// Timeout nor Deadline.
func (p *Pkg) dialerEdge(fset *token.FileSet, lit *ast.CompositeLit, timeName string) (Edge, bool) {
	set, all := p.litFields(lit)
	st := p.deadlines().stores
	if all || set["Timeout"] || set["Deadline"] || st["net.Timeout"] || st["net.Deadline"] {
		return Edge{}, false
	}
	e := Edge{Pos: lit.Pos(), End: lit.End(), Message: "net.Dialer{} has no Timeout: a dial to a peer that does not answer waits as long as the operating system lets a TCP connect hang (minutes), unless every dial is given a context with a deadline; set Timeout (SIO008)"}
	if timeName != "" {
		e.Fixes = insertAt(fset, lit, []string{"Timeout: " + fmt.Sprintf(dialTimeout, timeName)}, "set Timeout")
	}
	return e, true
}

// insertFields is the fix that adds the server timeouts a literal lacks,
// where "time" is imported.
func (p *Pkg) insertFields(fset *token.FileSet, lit *ast.CompositeLit, timeName string, set map[string]bool) []analysis.SuggestedFix {
	st := p.deadlines().stores
	if timeName == "" {
		return nil
	}
	var add []string
	if !set["ReadHeaderTimeout"] && !set["ReadTimeout"] && !st["net/http.ReadHeaderTimeout"] && !st["net/http.ReadTimeout"] {
		add = append(add, "ReadHeaderTimeout: "+fmt.Sprintf(headerTimeout, timeName))
	}
	if !set["IdleTimeout"] && !set["ReadTimeout"] && !st["net/http.IdleTimeout"] && !st["net/http.ReadTimeout"] {
		add = append(add, "IdleTimeout: "+fmt.Sprintf(idleTimeout, timeName))
	}
	return insertAt(fset, lit, add, "set "+strings.Join(add, ", "))
}

// insertAt adds keyed fields at the end of a literal: after its last
// element on the same line when the closing brace follows it there, or on
// lines of their own before a closing brace that starts its line (the
// last element then ends in a comma, as gofmt has it).
func insertAt(fset *token.FileSet, lit *ast.CompositeLit, fields []string, msg string) []analysis.SuggestedFix {
	if len(fields) == 0 {
		return nil
	}
	rb := fset.Position(lit.Rbrace)
	lastLine := fset.Position(lit.Lbrace).Line
	if n := len(lit.Elts); n > 0 {
		lastLine = fset.Position(lit.Elts[n-1].End()).Line
	}
	var text string
	if lastLine == rb.Line {
		text = strings.Join(fields, ", ")
		if len(lit.Elts) > 0 {
			text = ", " + text
		}
	} else {
		indent := strings.Repeat("\t", rb.Column-1) // the brace starts its line
		for _, fl := range fields {
			text += "\t" + fl + ",\n" + indent
		}
	}
	return []analysis.SuggestedFix{{Message: msg, TextEdits: []analysis.TextEdit{{Pos: lit.Rbrace, End: lit.Rbrace, NewText: []byte(text)}}}}
}

// importName is the name a file imports path under, or "".
func importName(f *ast.File, path string) string {
	for _, is := range f.Imports {
		if p, _ := strconv.Unquote(is.Path.Value); p == path {
			if is.Name != nil {
				if is.Name.Name == "_" || is.Name.Name == "." {
					return ""
				}
				return is.Name.Name
			}
			return path[strings.LastIndex(path, "/")+1:]
		}
	}
	return ""
}

// The request-path part.

// bound is what is known of a wait's bound.
type bound int

const (
	unknownBound bound = iota // not seen: no finding
	unbounded                 // seen, with no deadline
	bounded                   // a deadline or a timeout
)

// Deadlines judges the (*http.Client).Do calls of one body and the
// contexts its calls hand on.
type Deadlines struct {
	p      *Pkg
	assign map[types.Object][]ast.Expr // the body's assignments to its locals and parameters
	params map[types.Object]bool
	// visiting are the variables whose bound is being computed: ctx =
	// context.WithValue(ctx, …) reads ctx again.
	visiting map[types.Object]bool
}

// NewDeadlines reads a body's assignments for SIO008.
func (p *Pkg) NewDeadlines(sig *types.Signature, body *ast.BlockStmt) *Deadlines {
	d := &Deadlines{p: p, assign: map[types.Object][]ast.Expr{}, params: map[types.Object]bool{}, visiting: map[types.Object]bool{}}
	if sig != nil {
		for i := range sig.Params().Len() {
			d.params[sig.Params().At(i)] = true
		}
	}
	if body == nil {
		return d
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for i, l := range as.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				obj := p.Info.ObjectOf(id)
				switch {
				case len(as.Lhs) == len(as.Rhs):
					d.assign[obj] = append(d.assign[obj], as.Rhs[i])
				case len(as.Rhs) == 1 && i == 0:
					// ctx, cancel := context.WithTimeout(…); req, err := http.NewRequest…(…)
					d.assign[obj] = append(d.assign[obj], as.Rhs[0])
				default:
					d.assign[obj] = append(d.assign[obj], nil)
				}
			}
		}
		return true
	})
	return d
}

// join folds what several assignments give: any deadline bounds (the
// rule errs to silence), any unknown is unknown.
func join(bs []bound) bound {
	out := unbounded
	for _, b := range bs {
		if b == bounded {
			return bounded
		}
		if b == unknownBound {
			out = unknownBound
		}
	}
	if len(bs) == 0 {
		return unknownBound
	}
	return out
}

// local is the bound of a local variable by its assignments in the body.
// A parameter's own value has no deadline known here (what a caller hands
// it is judged at the caller, Mark), but the body may give it one: ctx,
// cancel = context.WithTimeout(ctx, d) bounds what follows.
func (d *Deadlines) local(id *ast.Ident, of func(ast.Expr, int) bound, depth int) bound {
	obj := d.p.Info.ObjectOf(id)
	if obj == nil {
		return unknownBound
	}
	if d.visiting[obj] {
		return unbounded // the variable's value again: it adds no deadline
	}
	d.visiting[obj] = true
	defer delete(d.visiting, obj)
	vs := d.assign[obj]
	var bs []bound
	if d.params[obj] {
		bs = append(bs, unbounded)
	}
	for _, v := range vs {
		if v == nil {
			bs = append(bs, unknownBound)
			continue
		}
		bs = append(bs, of(v, depth+1))
	}
	return join(bs)
}

// ctx is the bound of a context expression.
func (d *Deadlines) ctx(e ast.Expr, depth int) bound {
	if depth > 8 {
		return unknownBound
	}
	e = ast.Unparen(e)
	if t := d.p.Info.TypeOf(e); named.Is(t, true, "github.com/gin-gonic/gin", "Context") {
		return unbounded // the request's context, which has no deadline
	}
	switch e := e.(type) {
	case *ast.Ident:
		return d.local(e, d.ctx, depth)
	case *ast.CallExpr:
		fn := typeutil.StaticCallee(d.p.Info, e)
		if fn == nil || fn.Pkg() == nil {
			return unknownBound
		}
		path, name := fn.Pkg().Path(), fn.Name()
		switch {
		case path == knowledge.PathContext && named.Recv(fn) == nil:
			switch name {
			case "WithTimeout", "WithDeadline", "WithTimeoutCause", "WithDeadlineCause":
				return bounded
			case "Background", "TODO", "WithoutCancel":
				return unbounded
			case "WithCancel", "WithCancelCause", "WithValue":
				if len(e.Args) > 0 {
					return d.ctx(e.Args[0], depth+1)
				}
			}
		case path == knowledge.PathHTTP && name == "Context" && named.Recv(fn) != nil:
			if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok {
				return d.req(sel.X, depth+1)
			}
		}
	}
	return unknownBound
}

// req is the bound of the context an *http.Request carries.
func (d *Deadlines) req(e ast.Expr, depth int) bound {
	if depth > 8 {
		return unknownBound
	}
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.Ident:
		return d.local(e, d.req, depth)
	case *ast.SelectorExpr:
		// c.Request of a *gin.Context: the incoming request.
		if named.Is(d.p.Info.TypeOf(e.X), true, "github.com/gin-gonic/gin", "Context") && e.Sel.Name == "Request" {
			return unbounded
		}
	case *ast.CallExpr:
		if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Request" && len(e.Args) == 0 {
			// c.Request() of a framework's context (echo's): the incoming
			// request, an interface method with no static callee.
			if m, _ := typeutil.Callee(d.p.Info, e).(*types.Func); m != nil && m.Pkg() != nil && m.Pkg().Path() != d.p.Path &&
				named.Is(d.p.Info.TypeOf(e), true, knowledge.PathHTTP, "Request") {
				return unbounded
			}
		}
		fn := typeutil.StaticCallee(d.p.Info, e)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != knowledge.PathHTTP {
			return unknownBound
		}
		switch fn.Name() {
		case "NewRequest":
			return unbounded // context.Background()
		case "NewRequestWithContext":
			if len(e.Args) > 0 {
				return d.ctx(e.Args[0], depth+1)
			}
		case "WithContext", "Clone":
			if len(e.Args) > 0 && named.Recv(fn) != nil {
				return d.ctx(e.Args[0], depth+1)
			}
		}
	}
	return unknownBound
}

// Call is the item of an (*http.Client).Do that waits with no bound: a
// client with no Timeout, a request whose context has no deadline.
func (d *Deadlines) Call(call *ast.CallExpr) (paths.Item, bool) {
	if d.p.ThirdParty {
		// A library's client is the library's: what bounds its calls is
		// the context the program hands it (SIO001, SIO002), not a field
		// the program can set.
		return paths.Item{}, false
	}
	fn := typeutil.StaticCallee(d.p.Info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != knowledge.PathHTTP || fn.Name() != "Do" ||
		!named.Is(named.Recv(fn).Type(), true, knowledge.PathHTTP, "Client") || len(call.Args) != 1 {
		return paths.Item{}, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || d.p.client(sel.X, 0) != unbounded || d.req(call.Args[0], 0) != unbounded {
		return paths.Item{}, false
	}
	it := d.p.Term(DeadlineRule, call.Pos(), call.End(), paths.TerminalName(fn), clientDeadlineDetail, clientDeadlineHint)
	it.Call = call
	return it, true
}

// Mark marks the calls of items that hand their callee a context, or a
// request, with a deadline: what the callee sends is bounded.
func (d *Deadlines) Mark(items []paths.Item) {
	for i := range items {
		call := items[i].Call
		if call == nil || items[i].Term != nil {
			continue
		}
		for _, a := range call.Args {
			t := d.p.Info.TypeOf(a)
			if (named.IsContext(t) && d.ctx(a, 0) == bounded) || (named.Is(t, true, knowledge.PathHTTP, "Request") && d.req(a, 0) == bounded) {
				items[i].Bounded = true
			}
		}
	}
}

// client is the bound of an *http.Client expression, by where the
// package builds it.
func (p *Pkg) client(e ast.Expr, depth int) bound {
	if depth > 4 {
		return unknownBound
	}
	if p.deadlines().stores["net/http.Timeout"] {
		return bounded
	}
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		if !named.Is(p.Info.TypeOf(e), false, knowledge.PathHTTP, "Client") {
			return unknownBound
		}
		set, all := p.litFields(e)
		if all || set["Timeout"] {
			return bounded
		}
		for _, el := range e.Elts {
			kv := el.(*ast.KeyValueExpr)
			if k, _ := kv.Key.(*ast.Ident); k != nil && k.Name == "Transport" {
				tv := ast.Unparen(kv.Value)
				if u, ok := tv.(*ast.UnaryExpr); ok && u.Op == token.AND {
					tv = u.X
				}
				if tl, ok := tv.(*ast.CompositeLit); ok {
					if ts, _ := p.litFields(tl); ts["ResponseHeaderTimeout"] {
						return bounded
					}
				}
			}
		}
		return unbounded
	case *ast.CallExpr:
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && id.Name == "new" && len(e.Args) == 1 {
			if _, b := p.Info.Uses[id].(*types.Builtin); b && named.Is(p.Info.TypeOf(e.Args[0]), false, knowledge.PathHTTP, "Client") {
				return unbounded
			}
		}
		return unknownBound
	case *ast.Ident, *ast.SelectorExpr:
		var obj types.Object
		if id, ok := e.(*ast.Ident); ok {
			obj = p.Info.ObjectOf(id)
		} else {
			obj = p.Info.ObjectOf(e.(*ast.SelectorExpr).Sel)
		}
		if obj == nil {
			return unknownBound
		}
		if obj.Pkg() != nil && obj.Pkg().Path() == knowledge.PathHTTP && obj.Name() == "DefaultClient" {
			return unbounded
		}
		if v, ok := obj.(*types.Var); !ok || v.Kind() == types.ParamVar || v.Kind() == types.RecvVar || v.Kind() == types.ResultVar {
			return unknownBound // what a caller hands it is not seen here
		}
		// A constructor's result or another package's field has no
		// values here: unknown.
		vs := p.deadlines().values[obj]
		var bs []bound
		for _, v := range vs {
			if v == nil {
				bs = append(bs, unknownBound)
				continue
			}
			bs = append(bs, p.client(v, depth+1))
		}
		return join(bs)
	}
	return unknownBound
}
