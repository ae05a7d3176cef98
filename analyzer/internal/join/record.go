package join

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// Recorder records what a package brings to the joins, its own and those
// of the packages above: its conversions to followed interfaces
// (conversions.go), its stores into slots (stores.go), and the func
// arguments of its interface calls (args.go). What a function leads to
// is the analyzer's (its summaries, the facts below, the tables its
// configuration holds), handed in as function values, as Hooks are.
type Recorder struct {
	Pass *analysis.Pass
	// Tests is the configuration's: test doubles count as bindings.
	Tests bool
	// ThirdParty: the package is a dependency's, whose bindings serve
	// only its own interface calls (paths.Conv.Dep).
	ThirdParty bool
	Stored     *resolve.Stored
	Handlers   *resolve.Handlers
	SlotRoots  *SlotRoots
	// Site names a position as "file:line:col".
	Site func(token.Pos) string
	// Summary is a function's summary in this package, nil for another
	// package's; Lit a literal's, nil when it has none.
	Summary func(*types.Func) *paths.Summary
	Lit     func(*ast.FuncLit) *paths.Summary
	// LitName names a literal in a chain.
	LitName func(*ast.FuncLit) string
	// Method is what calling method m of a concrete type does, nil when
	// nothing to dispatch to; Opaque whether it hands a context to a call
	// the analysis cannot follow (paths.BlocksFact.Opaque).
	Method func(m *types.Func) *paths.BlocksFact
	Opaque func(m *types.Func) bool
	// Calls are the func parameters fn calls on the spot (resolve.Sync).
	Calls func(fn *types.Func) []int
	// Root reports whether the configuration makes fn a request root.
	Root func(fn *types.Func) bool
	// Holds records what the package's places of interface type hold;
	// nil in a dependency's package.
	Holds *Holds
}

// testDouble reports whether a conversion of t recorded in pkg binds a
// test double: the conversion is made in a test-support package (a mock
// handing itself to a callback, tests.(*MockDataStore).WithTx in
// navidrome), or t is declared in one or named as a double (MockX,
// FakeX, StubX). Such a package is compiled into the binary only because
// the tests import it; its types are never bound in the server, and
// following them put a mock's mutex among the locks held on a request
// path. Config.Tests, which analyses tests, keeps them.
func testDouble(pkg *types.Package, t types.Type) bool {
	if knowledge.TestSupport(pkg.Path()) {
		return true
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return knowledge.TestSupport(n.Obj().Pkg().Path()) || knowledge.TestDouble(n.Obj().Name())
}
