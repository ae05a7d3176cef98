package report

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// requestCtx returns the expression for the request context of root s,
// valid at pos, or "" when there is none or a shadowing declaration hides
// it.
func (r *Reporter) requestCtx(s *paths.Summary, pos token.Pos) string {
	if s.Sig == nil {
		return ""
	}
	params := s.Sig.Params()
	visible := func(v *types.Var) bool {
		if v == nil || v.Name() == "" || v.Name() == "_" {
			return false
		}
		scope := r.pass.Pkg.Scope().Innermost(pos)
		if scope == nil {
			return false
		}
		_, obj := scope.LookupParent(v.Name(), pos)
		return obj == v
	}
	for i := range params.Len() {
		if p := params.At(i); named.IsContext(p.Type()) && visible(p) {
			return p.Name()
		}
	}
	suffix := map[resolve.RootKind]string{
		resolve.RootGin: ".Request.Context()", resolve.RootEcho: ".Request().Context()",
		resolve.RootFiberV2: ".UserContext()", resolve.RootFiberV3: ".Context()",
	}
	// gRPC unary, connect and hertz roots have a ctx parameter, found
	// above; the others derive the context from their request value.
	switch s.Root {
	case resolve.RootHTTP, resolve.RootHTTPRouter:
		if params.Len() >= 2 && visible(params.At(1)) {
			return params.At(1).Name() + ".Context()"
		}
	case resolve.RootGRPCStream:
		if n := params.Len(); n > 0 && visible(params.At(n-1)) {
			return params.At(n-1).Name() + ".Context()"
		}
	case resolve.RootGin, resolve.RootEcho, resolve.RootFiberV2, resolve.RootFiberV3:
		if params.Len() == 1 && visible(params.At(0)) {
			return params.At(0).Name() + suffix[s.Root]
		}
	}
	return ""
}

// Fixes returns the mechanical rewrite for a root's direct finding, if any.
func (r *Reporter) Fixes(s *paths.Summary, it paths.Item) []analysis.SuggestedFix {
	if it.Call == nil {
		return nil
	}
	ctx := r.requestCtx(s, it.Pos)
	if ctx == "" {
		return nil
	}
	if it.FixArg != nil {
		if id, ok := it.FixArg.(*ast.Ident); ok && !strings.HasPrefix(ctx, id.Name+".") {
			// A framework value other than the root's own parameter (a
			// copy, another variable): the rewrite would change which
			// request it names.
			return nil
		}
		return []analysis.SuggestedFix{{
			Message:   "Pass the request context",
			TextEdits: []analysis.TextEdit{{Pos: it.FixArg.Pos(), End: it.FixArg.End(), NewText: []byte(ctx)}},
		}}
	}
	if it.GormRoot != nil {
		return []analysis.SuggestedFix{{
			Message:   "Start the gorm chain with WithContext(ctx)",
			TextEdits: []analysis.TextEdit{{Pos: it.GormRoot.End(), End: it.GormRoot.End(), NewText: []byte(".WithContext(" + ctx + ")")}},
		}}
	}
	if it.FixKey == "" {
		return nil
	}
	if method, ok := knowledge.HTTPShortcuts()[it.FixKey]; ok {
		return r.httpFix(it, ctx, method)
	}
	method, extraArgs := r.opts.Replacement(it.FixKey)
	sel, ok := ast.Unparen(it.Call.Fun).(*ast.SelectorExpr)
	if method == "" || !ok || (extraArgs != "" && len(it.Call.Args) > 0) {
		return nil
	}
	insert := ctx
	if extraArgs != "" {
		insert += ", " + extraArgs
	}
	if len(it.Call.Args) > 0 {
		insert += ", "
	}
	return []analysis.SuggestedFix{{
		Message: "Use " + method + " with the request context",
		TextEdits: []analysis.TextEdit{
			{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte(method)},
			{Pos: it.Call.Lparen + 1, End: it.Call.Lparen + 1, NewText: []byte(insert)},
		},
	}}
}

// httpFix rewrites `resp, err := http.Get(u)` (and Head, Post, and the
// *http.Client methods) into NewRequestWithContext + Do. It keeps the
// original semantics: when building the request fails, resp is nil and err
// is set, as http.Get itself does. Other statement forms get no fix.
func (r *Reporter) httpFix(it paths.Item, ctx, method string) []analysis.SuggestedFix {
	as := r.Assigns[it.Call]
	if as == nil || as.Tok != token.DEFINE || len(as.Lhs) != 2 {
		return nil
	}
	resp, ok1 := as.Lhs[0].(*ast.Ident)
	errID, ok2 := as.Lhs[1].(*ast.Ident)
	if !ok1 || !ok2 || resp.Name == "_" || errID.Name == "_" || r.pass.TypesInfo.Defs[resp] == nil {
		return nil
	}
	sel, ok := ast.Unparen(it.Call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	scope := r.pass.Pkg.Scope().Innermost(as.Pos())
	if scope == nil || scope.Lookup("req") != nil {
		return nil
	}
	if _, obj := scope.LookupParent("req", as.Pos()); obj != nil {
		return nil
	}
	httpName := r.importName(as.Pos(), knowledge.PathHTTP)
	if httpName == "" {
		return nil
	}
	src := r.source(as.Pos())
	text := func(e ast.Expr) string { return r.text(src, e) }
	args := it.Call.Args
	client := httpName + ".DefaultClient"
	if _, isPkg := r.pass.TypesInfo.Uses[identOf(sel.X)].(*types.PkgName); !isPkg {
		client = text(sel.X)
	}
	var url, body, contentType string
	switch {
	case method == "http.MethodPost" && len(args) == 3:
		url, contentType, body = text(args[0]), text(args[1]), text(args[2])
	case method != "http.MethodPost" && len(args) == 1:
		url, body = text(args[0]), "nil"
	default:
		return nil
	}
	if src == nil || url == "" || client == "" {
		return nil
	}
	indent := r.indent(src, as.Pos())
	m := httpName + strings.TrimPrefix(method, "http")
	var b strings.Builder
	b.WriteString("var " + resp.Name + " *" + httpName + ".Response\n")
	b.WriteString(indent + "req, " + errID.Name + " := " + httpName + ".NewRequestWithContext(" + ctx + ", " + m + ", " + url + ", " + body + ")\n")
	b.WriteString(indent + "if " + errID.Name + " == nil {\n")
	if contentType != "" {
		b.WriteString(indent + "\treq.Header.Set(\"Content-Type\", " + contentType + ")\n")
	}
	b.WriteString(indent + "\t" + resp.Name + ", " + errID.Name + " = " + client + ".Do(req)\n")
	b.WriteString(indent + "}")
	return []analysis.SuggestedFix{{
		Message:   "Use http.NewRequestWithContext with the request context and Do",
		TextEdits: []analysis.TextEdit{{Pos: as.Pos(), End: as.End(), NewText: []byte(b.String())}},
	}}
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// importName returns the name under which the file containing pos imports
// path, or "" (not imported, dot or blank import).
func (r *Reporter) importName(pos token.Pos, path string) string {
	for _, f := range r.pass.Files {
		if f.FileStart > pos || pos > f.FileEnd {
			continue
		}
		for _, spec := range f.Imports {
			if strings.Trim(spec.Path.Value, "`\"") != path {
				continue
			}
			if spec.Name != nil {
				if spec.Name.Name == "_" || spec.Name.Name == "." {
					return ""
				}
				return spec.Name.Name
			}
			if pn, ok := r.pass.TypesInfo.Implicits[spec].(*types.PkgName); ok {
				return pn.Name()
			}
		}
	}
	return ""
}

// source returns the content of the file containing pos.
func (r *Reporter) source(pos token.Pos) []byte {
	tf := r.pass.Fset.File(pos)
	if tf == nil {
		return nil
	}
	if b, ok := r.src[tf.Name()]; ok {
		return b
	}
	b, err := r.pass.ReadFile(tf.Name())
	if err != nil || len(b) != tf.Size() {
		b = nil // a file that changed since parsing gets no fix
	}
	r.src[tf.Name()] = b
	return b
}

// text returns the source text of e, or "" when unavailable.
func (r *Reporter) text(src []byte, e ast.Expr) string {
	tf := r.pass.Fset.File(e.Pos())
	if src == nil || tf == nil {
		return ""
	}
	start, end := tf.Offset(e.Pos()), tf.Offset(e.End())
	if start < 0 || end > len(src) || start > end {
		return ""
	}
	return string(src[start:end])
}

// indent returns the leading whitespace of the line holding pos.
func (r *Reporter) indent(src []byte, pos token.Pos) string {
	tf := r.pass.Fset.File(pos)
	if src == nil || tf == nil {
		return ""
	}
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	end := start
	for end < len(src) && (src[end] == '\t' || src[end] == ' ') {
		end++
	}
	return string(src[start:end])
}
