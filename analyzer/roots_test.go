package analyzer

import (
	"go/ast"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
)

// TestRoots covers the request roots of httprouter, connect-go, gRPC
// streaming and hertz: a blocking call in each shape is reported, SIO002
// sees the root's context, and near-miss shapes are no roots (they only
// export a fact). One run, to load the dependencies once.
func TestRoots(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer,
		"httprouterdemo", "connectdemo", "grpcstream", "hertzdemo")
}

// TestRootFixes checks the request context each new root kind gives
// suggested fixes: r.Context() (httprouter), the ctx parameter (connect,
// hertz) and stream.Context() (gRPC streaming), against
// rootfixes.go.golden.
func TestRootFixes(t *testing.T) {
	t.Parallel()
	cases.RunWithFixes(t, Analyzer, "rootfixes")
}

// TestRootContexts checks that the ctx-flow sees the request context of
// the new roots: stream.Context() of a gRPC server stream (an interface
// method, so no static callee), r.Context() and the ctx parameter. The
// rules cannot show it, since an unknown context is never flagged either.
func TestRootContexts(t *testing.T) {
	t.Parallel()
	cases.Run(t, ctxProbe, "ctxroots")
}

// ctxProbe reports, at each call probe(x), how dataflow.Ctx classifies x.
var ctxProbe = &analysis.Analyzer{
	Name: "ctxprobe",
	Doc:  "reports the ctx-flow class of probe arguments",
	Run: func(pass *analysis.Pass) (any, error) {
		classes := map[dataflow.CtxClass]string{dataflow.CtxUnset: "unset", dataflow.CtxUnknown: "unknown", dataflow.CtxRequest: "request", dataflow.CtxDropped: "dropped"}
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				sig, _ := pass.TypesInfo.Defs[fd.Name].Type().(*types.Signature)
				flow := dataflow.NewCtx(pass.TypesInfo, sig, fd.Body, false)
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok || len(call.Args) != 1 {
						return true
					}
					if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "probe" {
						pass.Reportf(call.Pos(), "%s", classes[flow.Classify(call.Args[0]).Class])
					}
					return true
				})
			}
		}
		return nil, nil
	},
}

// TestRootPattern: the -roots pattern of a stored function's type is its
// first parameter's, whatever brackets and commas that type holds; a type
// with no parameter, or not a func, has none.
func TestRootPattern(t *testing.T) {
	t.Parallel()
	for sig, want := range map[string]string{
		"func(*example.com/core.RequestEvent)(error)":     "func(*example.com/core.RequestEvent)",
		"func(int,string)()":                              "func(int)",
		"func(map[string]func(a, b int) error,bool)(int)": "func(map[string]func(a, b int) error)",
		"func(example.com/x.Pair[int, string])()":         "func(example.com/x.Pair[int, string])",
		"func()(error)":                                   "",
		"chan int":                                        "",
	} {
		got, ok := rootPattern(sig)
		if got != want || ok != (want != "") {
			t.Errorf("rootPattern(%q) = %q, %v; want %q", sig, got, ok, want)
		}
	}
}
