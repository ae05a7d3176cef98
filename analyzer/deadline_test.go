package analyzer

import (
	"testing"

	"golang.org/x/tools/go/analysis"
)

// deadlineAnalyzer is the analyzer with SIO008, which is opt-in, on.
func deadlineAnalyzer() *analysis.Analyzer {
	cfg := DefaultConfig()
	cfg.Rules["SIO008"] = true
	return New(cfg)
}

// TestDeadlines runs SIO008's cases: servers, serving calls, dialers and
// clients on request paths, flagged and clean.
func TestDeadlines(t *testing.T) {
	t.Parallel()
	cases.Run(t, deadlineAnalyzer(), "deadlines", "deadlinecfg")
}

// TestDeadlineFixes checks SIO008's rewrites against fix.go.golden.
func TestDeadlineFixes(t *testing.T) {
	t.Parallel()
	cases.RunWithFixes(t, deadlineAnalyzer(), "deadlinefix")
}
