package analyzer

import (
	"slices"
	"sort"
	"testing"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

// TestRoutedHooksImplemented: every hook a row's routed field may name
// (knowledge.RoutedHooks) has its predicate here, and there is none that
// no row may name; every routed row of the built-in table names one.
func TestRoutedHooksImplemented(t *testing.T) {
	t.Parallel()
	var have []string
	for name := range dataflow.RoutedHooks {
		have = append(have, name)
	}
	sort.Strings(have)
	want := slices.Clone(knowledge.RoutedHooks)
	sort.Strings(want)
	if !slices.Equal(have, want) {
		t.Errorf("dataflow.RoutedHooks implements %v; knowledge.RoutedHooks names %v", have, want)
	}
	n := 0
	for _, rep := range DefaultConfig().Blocking {
		if rep.Routed != "" {
			n++
			if dataflow.RoutedHooks[rep.Routed] == nil {
				t.Errorf("a row names routed %q, which has no predicate", rep.Routed)
			}
		}
	}
	if n == 0 {
		t.Error("no built-in row is routed: the go-redis v7, OSS and Qiniu rows lost their hooks")
	}
}
