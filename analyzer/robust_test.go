package analyzer

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// oddSource has type errors, bodiless and generic functions and strange
// statements. The analyzer must not panic and must still report what it
// can see.
const oddSource = `package odd

import (
	"context"
	"net/http"
	"time"
)

func asm()

type Num interface{ ~int | ~float64 }

func Sum[T Num](xs ...T) (s T) {
	for _, x := range xs { s += x }
	return
}

func Broken(w http.ResponseWriter, r *http.Request) {
	undefined.Call(context.Background())
	var f func(context.Context)
	f(context.TODO())
	_ = http.Get()
	_ = Sum(1, 2.5, "x")
	_ = nosuch(r.Context())
	var ch chan
	<-ch
	select {}
	go
	time.Sleep(time.Second)
	_ = int(3)
	_ = len("x")
	asm()
	func() { time.Sleep(1) }()
	defer func() {}()
}
`

func TestOddCodeDoesNotPanic(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "odd.go", oddSource, parser.ParseComments|parser.AllErrors)
	if f == nil {
		t.Fatal("parser returned no file")
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Implicits:  map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Scopes:     map[ast.Node]*types.Scope{},
		Instances:  map[*ast.Ident]types.Instance{},
	}
	var typeErrors int
	conf := types.Config{Importer: importer.Default(), Error: func(error) { typeErrors++ }}
	pkg, _ := conf.Check("odd", fset, []*ast.File{f}, info)
	if typeErrors == 0 {
		t.Fatal("oddSource should not type-check")
	}
	var diags []analysis.Diagnostic
	pass := &analysis.Pass{
		Analyzer:          Analyzer,
		Fset:              fset,
		Files:             []*ast.File{f},
		Pkg:               pkg,
		TypesInfo:         info,
		ResultOf:          map[*analysis.Analyzer]any{},
		Report:            func(d analysis.Diagnostic) { diags = append(diags, d) },
		ImportObjectFact:  func(types.Object, analysis.Fact) bool { return false },
		ExportObjectFact:  func(types.Object, analysis.Fact) {},
		ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
		ExportPackageFact: func(analysis.Fact) {},
		AllObjectFacts:    func() []analysis.ObjectFact { return nil },
		AllPackageFacts:   func() []analysis.PackageFact { return nil },
		ReadFile:          os.ReadFile,
	}
	cfg := DefaultConfig()
	if _, err := run(pass, &cfg); err != nil {
		t.Fatalf("run: %v", err)
	}
	var sleep, background, todo bool
	for _, d := range diags {
		sleep = sleep || strings.HasPrefix(d.Message, "time.Sleep waits")
		background = background || strings.Contains(d.Message, "context.Background()")
		todo = todo || strings.Contains(d.Message, "is given context.TODO()")
	}
	if !sleep || !todo {
		t.Errorf("want time.Sleep and context.TODO findings despite type errors, got %d diagnostics: %v", len(diags), diags)
	}
	if background {
		t.Errorf("a call on an undefined identifier has no known signature and must not be flagged: %v", diags)
	}
}

func TestRulesFlag(t *testing.T) {
	t.Parallel()
	a := New(DefaultConfig())
	if err := a.Flags.Set("rules", "SIO001, SIO005"); err != nil {
		t.Fatal(err)
	}
	if got := a.Flags.Lookup("rules").Value.String(); got != "SIO001,SIO005" {
		t.Errorf("rules = %q, want SIO001,SIO005", got)
	}
	if err := a.Flags.Set("rules", "SIO001,SIO042"); err == nil {
		t.Error("unknown rule ID accepted")
	}
	// New copies its Config: changing the flag of one analyzer leaves the
	// package-level Analyzer alone.
	var def []string
	for _, r := range Rules {
		if !r.OptIn {
			def = append(def, r.ID)
		}
	}
	if got := Analyzer.Flags.Lookup("rules").Value.String(); got != strings.Join(def, ",") {
		t.Errorf("default rules = %q, want %q", got, strings.Join(def, ","))
	}
}

func TestDefaultConfig(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	for _, r := range Rules {
		if cfg.Rules[r.ID] == r.OptIn {
			t.Errorf("%s enabled=%v, opt-in=%v", r.ID, cfg.Rules[r.ID], r.OptIn)
		}
	}
	for key, rep := range cfg.Blocking {
		if rep.Use == "" {
			t.Errorf("%s has no replacement", key)
		}
	}
	cfg.Blocking["example.com/db.Query"] = Replacement{Use: "QueryCtx"}
	if _, ok := DefaultConfig().Blocking["example.com/db.Query"]; ok {
		t.Error("DefaultConfig shares its table between calls")
	}
}
