package driver

import (
	"go/types"
	"io"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

type seenFact struct{}

func (*seenFact) AFact()         {}
func (*seenFact) String() string { return "seen" }

// TestReleasingKeepsWhatDependentsRead: a dependency's syntax and type
// information are whole during its own run and gone after it; its types
// and the facts it exported still reach the package that imports it,
// whose syntax (which -baseline reads) is kept.
func TestReleasingKeepsWhatDependentsRead(t *testing.T) {
	initial, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: "testdata/testsmod"}, "./api")
	if err != nil || len(initial) != 1 {
		t.Fatalf("load: %v (%d packages)", err, len(initial))
	}
	var factSeen bool
	probe := &analysis.Analyzer{
		Name:      "probe",
		Doc:       "probe",
		FactTypes: []analysis.Fact{new(seenFact)},
		Run: func(pass *analysis.Pass) (any, error) {
			if len(pass.Files) == 0 || len(pass.TypesInfo.Uses) == 0 {
				t.Errorf("%s: released before its own run", pass.Pkg.Path())
			}
			switch pass.Pkg.Path() {
			case "example.com/testsmod/svc":
				pass.ExportObjectFact(pass.Pkg.Scope().Lookup("Handler"), new(seenFact))
			case "example.com/testsmod/api":
				for _, obj := range pass.TypesInfo.Uses {
					if fn, ok := obj.(*types.Func); ok && fn.Name() == "Handler" {
						factSeen = pass.ImportObjectFact(fn, new(seenFact))
					}
				}
			}
			return nil, nil
		},
	}
	if _, err := checker.Analyze([]*analysis.Analyzer{releasing(probe, initial)}, initial, nil); err != nil {
		t.Fatal(err)
	}
	if !factSeen {
		t.Error("the dependency's fact did not reach its importer")
	}
	api := initial[0]
	svc := api.Imports["example.com/testsmod/svc"]
	if svc.Syntax != nil || svc.TypesInfo.Uses != nil || svc.TypesInfo.Types != nil {
		t.Error("the dependency's syntax or type information is still held after its run")
	}
	if svc.Types.Scope().Lookup("Handler") == nil {
		t.Error("the dependency's types were dropped")
	}
	if len(api.Syntax) == 0 {
		t.Error("the root's syntax was dropped; -baseline reads it")
	}
	if api.TypesInfo.Uses != nil {
		t.Error("the root's type information is still held after its run")
	}
}

// TestCapAtLoad: the limit is what the process holds, never below the
// live heap, and the collector's target rises under it; a GOMEMLIMIT or
// GOGC of the user's wins.
func TestCapAtLoad(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	gc := debug.SetGCPercent(50)
	defer debug.SetGCPercent(gc)
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	capAtLoad()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	got := debug.SetMemoryLimit(-1)
	if got == math.MaxInt64 || uint64(got) < s[0].Value.Uint64() {
		t.Errorf("limit %d, live heap %d: want a finite limit above the live heap", got, s[0].Value.Uint64())
	}
	if p := debug.SetGCPercent(50); p != 200 {
		t.Errorf("GC target %d after the load, want 200", p)
	}
	debug.SetMemoryLimit(before)
	t.Setenv("GOMEMLIMIT", "8GiB")
	t.Setenv("GOGC", "50")
	capAtLoad()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("with GOMEMLIMIT set the limit moved to %d", got)
	}
	if p := debug.SetGCPercent(50); p != 50 {
		t.Errorf("with GOGC set the target moved to %d", p)
	}
}

// TestRunPutsTheCollectorBack: a run's GC target and memory limit are
// the process's; after Run they are what they were before it.
func TestRunPutsTheCollectorBack(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	limit := debug.SetMemoryLimit(-1)
	gc := debug.SetGCPercent(100)
	defer debug.SetGCPercent(gc)
	probe := &analysis.Analyzer{Name: "probe", Doc: "probe", FactTypes: []analysis.Fact{new(seenFact)},
		Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	Run(Config{Analyzer: probe, Dir: "testdata/testsmod", Stdout: io.Discard, Stderr: io.Discard}, []string{"./..."})
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("memory limit after Run: %d, want %d", got, limit)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC target after Run: %d, want 100", got)
	}
}
