package rules

import (
	"go/token"
	"go/types"
	"strconv"
	"testing"

	"github.com/syncio/syncio/analyzer/internal/dispatch"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// decideFixture is a Contexts for a package named name at path, whose
// file a.go holds the root's call at 3:5–3:20, and a candidate there whose
// callee makes the interface calls dyn. The pass knows s.go by line only
// (a stand-in for a file it cannot read): a site there lands on its line.
func decideFixture(name, path string, dyn ...paths.DynCall) (*Contexts, Dropped) {
	fset := token.NewFileSet()
	tf := fset.AddFile("a.go", -1, 200)
	tf.SetLines([]int{0, 40, 80, 120, 160})
	sf := fset.AddFile("s.go", -1, 100)
	sf.SetLines([]int{0, 50})
	c := (&Pkg{Path: path}).NewContexts(types.NewPackage(path, name), fset)
	c.SitePos = func(site string) token.Pos {
		rest, col, _ := paths.CutLast(site)
		file, line, _ := paths.CutLast(rest)
		l, _ := strconv.Atoi(line)
		k, _ := strconv.Atoi(col)
		switch {
		case file == "a.go" && l >= 1 && l <= tf.LineCount():
			return tf.LineStart(l) + token.Pos(k-1)
		case file == "s.go" && l >= 1 && l <= sf.LineCount():
			return sf.LineStart(l)
		}
		return token.NoPos
	}
	dc := Dropped{Root: "Handler", Site: "a.go:3:5", EndSite: "a.go:3:20", Name: "cache.GetUser",
		Detail: "is given context.Background() instead of the request context", Hint: "pass the request's context",
		Dyn: dyn,
		Fixes: []Fix{
			{Message: "pass ctx", Edits: []Edit{{Site: "a.go:3:15", EndSite: "a.go:3:19", NewText: "ctx"}}},
			{Message: "elsewhere", Edits: []Edit{{Site: "b.go:1:1", EndSite: "b.go:1:2", NewText: "x"}}},
			{Message: "by line only", Edits: []Edit{{Site: "s.go:2:7", EndSite: "s.go:2:9", NewText: "x"}}},
		}}
	return c, dc
}

// report records what Decide reports.
type reported struct {
	items []paths.Item
	fs    [][]*paths.Finding
}

func (r *reported) report(_ *paths.Summary, it paths.Item, fs []*paths.Finding) {
	r.items = append(r.items, it)
	r.fs = append(r.fs, fs)
}

// TestDecideDropped: a deferred SIO002 candidate is reported where a
// binding reaches I/O, once; it is left for the packages above when the
// bindings reach nothing, unless the package is the program's main and a
// context-taking interface call of the callee has no binding at all.
func TestDecideDropped(t *testing.T) {
	cacheGet := paths.DynCall{Iface: "example.com/cache.Cache", Method: "Get", Ctx: true}
	noCtx := paths.DynCall{Iface: "example.com/plugin.Status", Method: "UserStatus"}
	depCall := paths.DynCall{Iface: "example.com/lib.Store", Method: "Get", Ctx: true, Dep: true}
	blocking := []*paths.Finding{{Rule: "SIO001", Chain: []string{"redis.Get"}, Sites: []string{"r.go:1:1"}}}
	none := func(paths.DynCall) ([]*paths.Finding, bool) { return nil, false }
	for _, tc := range []struct {
		name, pkgName, path string
		dyn                 []paths.DynCall
		bound               []string // interfaces with an (idle) binding
		dispatch            func(paths.DynCall) ([]*paths.Finding, bool)
		want                bool
	}{
		{name: "binding reaches I/O", pkgName: "wiring", path: "example.com/wiring", dyn: []paths.DynCall{cacheGet},
			dispatch: func(paths.DynCall) ([]*paths.Finding, bool) { return blocking, false }, want: true},
		{name: "binding hands the context on", pkgName: "wiring", path: "example.com/wiring", dyn: []paths.DynCall{cacheGet},
			dispatch: func(paths.DynCall) ([]*paths.Finding, bool) { return nil, true }, want: true},
		{name: "idle binding, not main: left above", pkgName: "wiring", path: "example.com/wiring", dyn: []paths.DynCall{cacheGet},
			bound: []string{cacheGet.Iface}, dispatch: none},
		{name: "no binding, not main: left above", pkgName: "wiring", path: "example.com/wiring", dyn: []paths.DynCall{cacheGet},
			dispatch: none},
		{name: "no binding in main", pkgName: "main", path: "example.com/cmd", dyn: []paths.DynCall{cacheGet},
			dispatch: none, want: true},
		{name: "idle binding in main", pkgName: "main", path: "example.com/cmd", dyn: []paths.DynCall{cacheGet},
			bound: []string{cacheGet.Iface}, dispatch: none},
		{name: "unbound calls given no context or in a dependency", pkgName: "main", path: "example.com/cmd",
			dyn: []paths.DynCall{noCtx, depCall}, dispatch: none},
		{name: "a test binary's main", pkgName: "main", path: "example.com/svc.test", dyn: []paths.DynCall{cacheGet},
			dispatch: none},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, dc := decideFixture(tc.pkgName, tc.path, tc.dyn...)
			b := dispatch.Index[paths.BlocksFact](nil)
			for _, iface := range tc.bound {
				b.Bound[iface] = true
			}
			var got reported
			done := map[string]bool{}
			key, ok := c.Decide(dc, b, done, tc.dispatch, got.report)
			if ok != tc.want || len(got.items) != map[bool]int{true: 1}[tc.want] {
				t.Fatalf("Decide = %q, %v with %d reports; want reported %v", key, ok, len(got.items), tc.want)
			}
			if !ok {
				return
			}
			if want := "a.go:3:5|SIO002|cache.GetUser@a.go:3:5"; key != want {
				t.Errorf("key = %q, want %q", key, want)
			}
			f := got.fs[0][0]
			if f.Rule != "SIO002" || f.Detail != dc.Detail || f.Hint != dc.Hint || len(f.Poses) != 1 || f.Poses[0] != got.items[0].Pos {
				t.Errorf("finding = %+v at %v: want the candidate's SIO002 at the root's call", f, got.items[0].Pos)
			}
			// The fix whose edits land exactly in this pass's files is
			// kept, the others dropped.
			if fx := got.items[0].Fixes; len(fx) != 1 || fx[0].Message != "pass ctx" || len(fx[0].TextEdits) != 1 ||
				string(fx[0].TextEdits[0].NewText) != "ctx" || fx[0].TextEdits[0].End-fx[0].TextEdits[0].Pos != 4 {
				t.Errorf("fixes = %+v: want the one placed in a.go", fx)
			}
			// Reported once: a second join (or a package above) that was
			// handed the key reports nothing.
			done[key] = true
			if _, again := c.Decide(dc, b, done, tc.dispatch, got.report); again || len(got.items) != 1 {
				t.Errorf("reported again after its key was recorded")
			}
		})
	}
}

// TestResultsCarryContext: a callee whose results may hold the dropped
// context (a builder, an interface) is never deferred, one returning
// plain values and errors may be.
func TestResultsCarryContext(t *testing.T) {
	errT := types.Universe.Lookup("error").Type()
	iface := types.NewInterfaceType(nil, nil)
	st := types.NewStruct([]*types.Var{types.NewField(token.NoPos, nil, "Ctx", iface, false)}, nil)
	for _, tc := range []struct {
		name    string
		results []types.Type
		want    bool
	}{
		{"none", nil, false},
		{"int and error", []types.Type{types.Typ[types.Int], errT}, false},
		{"slice of strings", []types.Type{types.NewSlice(types.Typ[types.String])}, false},
		{"interface", []types.Type{iface}, true},
		{"pointer to a struct holding an interface", []types.Type{types.NewPointer(st)}, true},
		{"map to funcs", []types.Type{types.NewMap(types.Typ[types.String], types.NewSignatureType(nil, nil, nil, nil, nil, false))}, true},
	} {
		var vars []*types.Var
		for _, r := range tc.results {
			vars = append(vars, types.NewParam(token.NoPos, nil, "", r))
		}
		sig := types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(vars...), false)
		if got := resultsCarryContext(sig); got != tc.want {
			t.Errorf("%s: resultsCarryContext = %v, want %v", tc.name, got, tc.want)
		}
	}
}
