package resolve

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestMemos: a function that, under a lock, stores what its func
// parameter returns where it first looks it up (a nil check, a comma-ok
// index) memoises that parameter; one that stores without looking up,
// or holds no lock, does not. Once answers a call with the memoised
// parameters of its callee, and with sync.(*Once).Do's from knowledge's
// table.
func TestMemos(t *testing.T) {
	t.Parallel()
	extra := map[string]string{"sync": `package sync
type Mutex struct{}
func (*Mutex) Lock()   {}
func (*Mutex) Unlock() {}
type Once struct{}
func (*Once) Do(f func()) {}`}
	fset := token.NewFileSet()
	f, info := checkIn(t, fset, "example.com/app", `package app

import "sync"

var (
	mu    sync.Mutex
	inst  any
	cache = map[string]any{}
	last  any
	once  sync.Once
)

func singleton(build func() any) any {
	mu.Lock()
	defer mu.Unlock()
	if inst == nil {
		inst = build()
	}
	return inst
}

func loader(key string, load func(string) any) any {
	mu.Lock()
	defer mu.Unlock()
	if v, ok := cache[key]; ok {
		return v
	}
	v := load(key)
	cache[key] = v
	return v
}

func storeOnly(f func() any) {
	mu.Lock()
	defer mu.Unlock()
	last = f()
}

func unlocked(build func() any) any {
	if inst == nil {
		inst = build()
	}
	return inst
}

func use() {
	singleton(func() any { return 1 })
	loader("k", func(string) any { return 2 })
	unlocked(func() any { return 3 })
	once.Do(func() {})
}
`, extra)
	fns, pkg := declaredFuncs(f, info)
	var decls []Decl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			fn := fns[fd.Name.Name]
			decls = append(decls, Decl{Fd: fd, Fn: fn, Params: FuncParams(fn.Type().(*types.Signature))})
		}
	}
	exported := map[types.Object][]int{}
	pass := &analysis.Pass{Pkg: pkg, Fset: fset, TypesInfo: info, Files: []*ast.File{f},
		ExportObjectFact: func(obj types.Object, fact analysis.Fact) { exported[obj] = fact.(*MemoFact).Params },
		ImportObjectFact: func(types.Object, analysis.Fact) bool { return false }}
	m := NewMemos(pass)
	m.Scan(decls)
	for name, want := range map[string][]int{"singleton": {0}, "loader": {1}, "storeOnly": nil, "unlocked": nil, "use": nil} {
		if got := m.Of(fns[name]); !slices.Equal(got, want) {
			t.Errorf("Of(%s) = %v, want %v", name, got, want)
		}
		if got := exported[fns[name]]; !slices.Equal(got, want) {
			t.Errorf("%s's MemoFact = %v, want %v", name, got, want)
		}
	}
	var once [][]int
	for _, d := range decls {
		if d.Fn.Name() != "use" {
			continue
		}
		for _, st := range d.Fd.Body.List {
			once = append(once, m.Once(st.(*ast.ExprStmt).X.(*ast.CallExpr)))
		}
	}
	if want := [][]int{{0}, {1}, nil, {0}}; !slices.EqualFunc(once, want, slices.Equal[[]int]) {
		t.Errorf("Once at use's calls = %v, want %v", once, want)
	}
}
