package analyzer

import "testing"

// TestDeadlines runs SIO008's cases: servers, serving calls, dialers and
// clients on request paths, flagged and clean, and servers configured
// after construction.
func TestDeadlines(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "deadlines", "deadlinecfg", "deadlineecho/bare", "deadlineecho/configured")
}

// TestDeadlineFixes checks SIO008's rewrites against fix.go.golden.
func TestDeadlineFixes(t *testing.T) {
	t.Parallel()
	cases.RunWithFixes(t, Analyzer, "deadlinefix")
}
