package analyzer

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestAnalyzer runs every positive and negative case in one analysistest
// run: with facts, each run analyses the standard library dependencies
// too, so cases are grouped to keep the suite fast.
func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "nethttp", "frameworks", "chain/a")
}
