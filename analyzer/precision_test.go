package analyzer

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// Precision classes of issue 10 (docs/precision.md, "Precision classes
// (issue 10)"). The dependency-module halves of classes 1 and 5 are in
// TestThirdParty.

// TestNewRequestWithContextLater: class 1, http.NewRequest given the
// request's context later by WithContext or Clone.
func TestNewRequestWithContextLater(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), Analyzer, "prec/newreq")
}

// TestDetachedDaemon: class 2, exec.Command started as a detached daemon.
func TestDetachedDaemon(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), Analyzer, "prec/daemon")
}

// TestGormContextValues: class 3, gorm values that carry a context
// (associations, the list-query idiom, index expressions).
func TestGormContextValues(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), Analyzer, "prec/gormctx")
}

// TestDoneEscapeOrigin: class 4, a ctx.Done() case is an escape only when
// the context derives from the request's or is of unknown origin.
func TestDoneEscapeOrigin(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), Analyzer, "prec/doneescape")
}

// TestDistinctTerminals: class 6, every distinct blocking operation a
// root's call reaches is in its rule's diagnostic, across packages, with
// the fact bounded to maxTerminals per rule; each other operation is also
// attached as related information at its own position.
func TestDistinctTerminals(t *testing.T) {
	t.Parallel()
	results := analysistest.Run(t, analysistest.TestData(), Analyzer, "prec/terminals", "prec/terminals/dep", "prec/terminals/store")
	found := false
	for _, res := range results {
		for _, d := range res.Diagnostics {
			if !strings.HasPrefix(d.Message, "Load calls dep.Load") {
				continue
			}
			found = true
			var also []string
			for _, rel := range d.Related {
				if strings.HasPrefix(rel.Message, "also reaches ") {
					p := res.Pass.Fset.Position(rel.Pos)
					also = append(also, filepath.Base(p.Filename)+":"+strconv.Itoa(p.Line)+" "+rel.Message)
				}
			}
			want := "dep.go:21 also reaches net/http.Get, which blocks without the request context"
			if len(also) != 1 || also[0] != want {
				t.Errorf("related %q, want [%q]", also, want)
			}
		}
	}
	if !found {
		t.Error("no diagnostic for Load")
	}
}

// TestGormMigrator: issue 21's precision class, gorm's Migrator judged by
// the chain it was built from, not dispatched into gorm's migrator source.
func TestGormMigrator(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), Analyzer, "prec/gormmigrator")
}

// TestFileIOKeepsLock: issue 21's precision class, enabling SIO006 does
// not hide a SIO003 on the same path (the file I/O ranks above the lock
// held across a query, which was dropped from the helper's summary).
func TestFileIOKeepsLock(t *testing.T) {
	t.Parallel()
	cfg, err := Settings{Rules: map[string]bool{"sio006": true}}.Config()
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), New(cfg), "prec/lockfile")
}

// TestIdleCallee: issue 21's precision class, SIO002 only when the callee
// given the dropped context can reach blocking I/O with it.
func TestIdleCallee(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), Analyzer, "prec/idlectx")
}
