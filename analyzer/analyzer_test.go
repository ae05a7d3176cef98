package analyzer

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/syncio/syncio/analyzer/internal/casetest"
)

// TestAnalyzer runs every positive and negative case in one analysistest
// run: with facts, each run analyses the dependencies too, so cases are
// grouped to keep the suite fast.
func TestAnalyzer(t *testing.T) {
	t.Parallel()
	results := cases.Run(t, Analyzer,
		"nethttp", "frameworks", "ginfallback", "chain/a", "chain/b", "chain/c",
		"exits/api", "exits/store", "exits/report")

	// Every diagnostic carries its rule as Category and the rule's fix page as URL.
	var chain *analysis.Diagnostic
	var fset = results[0].Fset
	for _, res := range results {
		for i, d := range res.Diagnostics {
			if _, ok := RuleByID(d.Category); !ok && d.Category != "SIO000" {
				t.Errorf("%s: category %q is not a rule ID", d.Message, d.Category)
			}
			want := FixURL(d.Category)
			if strings.Contains(d.Message, "syncio:ignore") {
				want = DefaultDocsBase + SuppressionPage // the directive's fix, not the rule's
			}
			if d.URL != want {
				t.Errorf("%s: URL %q, want %q", d.Message, d.URL, want)
			}
			if !strings.HasSuffix(d.Message, "("+d.Category+")") {
				t.Errorf("message %q does not end with its rule ID", d.Message)
			}
			if strings.HasPrefix(d.Message, "GetProfile calls b.(*Profiles).Load") {
				chain = &res.Diagnostics[i]
				fset = res.Fset
			}
		}
	}
	if chain == nil {
		t.Fatal("no diagnostic for the cross-package chain")
	}
	// The chain is also attached as Related, one hop per entry, each at the
	// call inside the previous function, the last at the blocking call.
	want := []struct{ file, msg string }{
		{"a.go", "calls b.(*Profiles).Load"},
		{"b.go", "calls c.Fetch"},
		{"c.go", "net/http.Get blocks without the request context"},
	}
	if len(chain.Related) != len(want) {
		t.Fatalf("Related has %d entries, want %d: %+v", len(chain.Related), len(want), chain.Related)
	}
	for i, w := range want {
		rel := chain.Related[i]
		p := fset.Position(rel.Pos)
		if filepath.Base(p.Filename) != w.file || rel.Message != w.msg {
			t.Errorf("Related[%d] = %s %q, want %s %q", i, p, rel.Message, w.file, w.msg)
		}
	}
	if p := fset.Position(chain.Related[0].Pos); p != fset.Position(chain.Pos) {
		t.Errorf("first hop at %s, want the diagnostic position %s", p, fset.Position(chain.Pos))
	}
}

// TestSuggestedFixes checks every mechanical rewrite against fixes.go.golden.
func TestSuggestedFixes(t *testing.T) {
	t.Parallel()
	cases.RunWithFixes(t, Analyzer, "fixes", "ormfix")
}

// TestConfig runs an analyzer built by New with SIO005 off and an extra
// SIO001 table entry.
func TestConfig(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	cfg.Rules["SIO005"] = false
	cfg.Blocking["custom.(*Legacy).Fetch"] = Replacement{Use: "l.FetchContext(ctx, key)"}
	cases.Run(t, New(cfg), "custom")
}

// TestLocks covers SIO003: direct, deferred, embedded and RW locks, I/O
// through helpers in the same and another package, and in-memory work.
func TestLocks(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "locks", "locks/store")
}

// TestClients covers SIO004 against fake SDK packages at the real import
// paths, directly and through a helper.
func TestClients(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "clients", "pooledclients")
}

// TestInterfaceKeys covers SIO001 table keys naming interface methods
// (redigo's redis.Conn.Do, FN3 in docs/precision.md), matched through
// embedding interfaces too.
func TestInterfaceKeys(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "cache", "cache/gredis")
}

// TestMultiRule covers helpers leading to operations of several rules
// (FN2 in docs/precision.md): the fact keeps the paths of every rule, and
// the root's call gets one diagnostic per rule (TestDistinctTerminals
// covers several operations of one rule).
func TestMultiRule(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "multi", "multi/dep")
}

// TestFileIO enables the opt-in SIO006 through Settings, as the plugin does.
func TestFileIO(t *testing.T) {
	t.Parallel()
	cfg, err := Settings{Rules: map[string]bool{"sio006": true}}.Config()
	if err != nil {
		t.Fatal(err)
	}
	cases.Run(t, New(cfg), "fileio")
}

// TestFileIOOffByDefault: the default analyzer reports no SIO006.
func TestFileIOOffByDefault(t *testing.T) {
	t.Parallel()
	res := cases.Run(quiet{T: t}, Analyzer, "fileio")
	if len(res) == 0 || res[0].Err != nil {
		t.Fatalf("fileio did not analyse: %+v", res)
	}
	for _, r := range res {
		for _, d := range r.Diagnostics {
			if d.Category == "SIO006" {
				t.Errorf("SIO006 reported by default: %s", d.Message)
			}
		}
	}
}

// quiet swallows analysistest's "want" mismatches for runs that check the
// diagnostics themselves.
type quiet struct{ *testing.T }

func (quiet) Errorf(string, ...any) {}

// TestORM covers gorm (v2 and v1) chains, through locals, fields, globals
// and repository methods in the same and another package, and sqlx.
func TestORM(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "orm", "orm/repo")
}

// TestStaleIgnores: ignores that hide nothing are reported, on lines,
// in doc comments and in helpers; ignores that stop propagation are not.
// At a handler's interface call an ignore is judged by the join of its
// package where that sees the binding, and counts as used where only a
// package above does (stale/wire).
func TestStaleIgnores(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "stale", "stale/dep", "stale/wire")
}

// TestLibraries covers the SDK entries of the SIO001 table and of SIO004
// (docs/rules/libraries.md): one context-less call per library, its
// context-aware variant, receivers and options that may carry a context,
// and the constructors that do and do not build a transport.
func TestLibraries(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "libs")
}

// TestBlockwatchIsNotIO: a service outside this repository that labels
// its requests with blockwatch (Hold, Drop, Do), as the remediation guide's
// Confirm step wires it, gets no finding for the labelling, under a lock
// or inside a transaction; the I/O next to it is still reported.
func TestBlockwatchIsNotIO(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "watchlabels")
}

// cases is the testdata tree, loaded once for every test that runs the
// analyzer on its cases.
var cases = casetest.New(analysistest.TestData())

// TestOAuth2Builders: x/oauth2's Config.TokenSource, Config.Client and
// NewClient take a context but do no I/O (noio rows), so a lock held
// across them is silent; a refresh run under a lock is still reported.
func TestOAuth2Builders(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "oauthlock")
}
