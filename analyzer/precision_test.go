package analyzer

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// Precision classes of issue 10 (docs/precision.md, "Precision classes
// (issue 10)"). The dependency-module halves of classes 1 and 5 are in
// TestThirdParty.

// TestNewRequestWithContextLater: class 1, http.NewRequest given the
// request's context later by WithContext or Clone.
func TestNewRequestWithContextLater(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "prec/newreq")
}

// TestDetachedDaemon: class 2, exec.Command started as a detached daemon.
func TestDetachedDaemon(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "prec/daemon")
}

// TestGormContextValues: class 3, gorm values that carry a context
// (associations, the list-query idiom, index expressions).
func TestGormContextValues(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "prec/gormctx")
}

// TestDoneEscapeOrigin: class 4, a ctx.Done() case is an escape only when
// the context derives from the request's or is of unknown origin.
func TestDoneEscapeOrigin(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "prec/doneescape")
}
