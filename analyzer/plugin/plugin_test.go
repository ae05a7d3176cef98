package plugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/syncio/syncio/analyzer"
	"github.com/syncio/syncio/docs/docblock"
)

// Raw settings are built the way golangci-lint hands them over: maps of any
// decoded from YAML, with map keys lower-cased by its config loader.

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin(analyzer.Name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil || len(as) != 1 || as[0].Name != analyzer.Name {
		t.Fatalf("BuildAnalyzers = %v, %v; want one %q analyzer", as, err, analyzer.Name)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want %q", p.GetLoadMode(), register.LoadModeTypesInfo)
	}
}

func TestNewAppliesSettings(t *testing.T) {
	raw := map[string]any{
		"rules":    map[string]any{"sio006": true, "sio005": false},
		"tests":    true,
		"blocking": []any{"example.com/store.(*Client).Fetch=store.(*Client).FetchContext(ctx, key)"},
		"allow":    []any{"example.com/cache.Get"},
		"roots":    []any{"func(*example.com/rpc.Request)"},
		// strict-roots is how golangci-lint can show a package whose
		// routes led to no request root (docs/ci.md, drivers table).
		"strict-roots": true,
	}
	cfg := configOf(t, raw)
	if !cfg.StrictRoots {
		t.Error("strict-roots not applied")
	}
	want, err := analyzer.Settings{
		Rules:    map[string]bool{"SIO006": true, "SIO005": false},
		Tests:    true,
		Blocking: []string{"example.com/store.(*Client).Fetch=store.(*Client).FetchContext(ctx, key)"},
		Allow:    []string{"example.com/cache.Get"},
		Roots:    []string{"func(*example.com/rpc.Request)"},
	}.Config()
	if err != nil {
		t.Fatal(err)
	}
	// The plugin must hand over exactly what the shared mapping builds.
	if !cfg.Rules["SIO006"] || cfg.Rules["SIO005"] || !cfg.Rules["SIO001"] {
		t.Errorf("rules = %v, want SIO006 on, SIO005 off, SIO001 still on", cfg.Rules)
	}
	if !cfg.Tests || !cfg.Allow["example.com/cache.Get"] || len(cfg.Roots) != len(want.Roots) {
		t.Errorf("tests/allow/roots not applied: %+v", cfg)
	}
	if got := cfg.Blocking["example.com/store.(*Client).Fetch"].Use; got != want.Blocking["example.com/store.(*Client).Fetch"].Use {
		t.Errorf("blocking suggestion = %q, want %q", got, want.Blocking["example.com/store.(*Client).Fetch"].Use)
	}
}

func TestNewDefaults(t *testing.T) {
	def := analyzer.DefaultConfig()
	for _, raw := range []any{nil, map[string]any{}} {
		cfg := configOf(t, raw)
		for _, r := range analyzer.Rules {
			if cfg.Rules[r.ID] != def.Rules[r.ID] {
				t.Errorf("settings %v: %s enabled = %v, want the default %v", raw, r.ID, cfg.Rules[r.ID], def.Rules[r.ID])
			}
		}
	}
}

func TestNewRejectsBadSettings(t *testing.T) {
	tests := []struct {
		name    string
		raw     any
		mention string
	}{
		{"unknown key", map[string]any{"rule": map[string]any{"SIO001": true}}, `"rule"`},
		{"unknown rule", map[string]any{"rules": map[string]any{"sio999": true}}, "sio999"},
		{"rules as a list", map[string]any{"rules": []any{"SIO001"}}, "rules"},
		{"bad blocking entry", map[string]any{"blocking": []any{"Fetch"}}, `"Fetch"`},
		{"bad blocking row", map[string]any{"blocking": []any{"example.com/a.F | usage: a.FContext"}}, `field "usage: a.FContext"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.raw)
			if err == nil {
				t.Fatal("New succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tt.mention) || !strings.HasPrefix(err.Error(), "syncio settings: ") {
				t.Errorf("error %q does not start with %q and name %s", err, "syncio settings: ", tt.mention)
			}
		})
	}
}

// configOf builds the plugin from raw settings and returns its Config.
func configOf(t *testing.T, raw any) analyzer.Config {
	t.Helper()
	p, err := New(raw)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*linter).cfg
}

// TestSettingsRowIsFound: a blocking entry in the settings, written as a
// row of the built-in table (analyzer/internal/knowledge/blocking.txt),
// adds a user's SDK call: the plugin reports it with the row's verb and
// replacement, and offers the fix to the row's method.
func TestSettingsRowIsFound(t *testing.T) {
	p, err := New(map[string]any{"blocking": []any{
		"example.com/usersdk/sdk.(*Client).Fetch | use: client.FetchContext(ctx, key) | method: FetchContext" +
			" | verb: waits for the SDK's server without the request context | evidence: example.com/usersdk/sdk sdk.go:16",
	}})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), as[0], "usersdkapi")
}

// TestSettingsClientAndWaitRowsAreFound: blocking entries of the other
// kinds, a constructor row (builds) and a wait row (hint), add an SIO004
// and an SIO005 call of a user's SDK; a pool built at start-up is not
// reported.
func TestSettingsClientAndWaitRowsAreFound(t *testing.T) {
	p, err := New(map[string]any{"blocking": []any{
		"example.com/usersdk/sdk.NewPool | builds: the SDK's SMTP pool | evidence: example.com/usersdk/sdk sdk.go:35",
		"example.com/usersdk/sdk.(*Pool).Drain | kind: wait | hint: use p.DrainContext(ctx)",
	}})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), as[0], "usersdkpools")
}

// TestDocSettingsLists: the settings example of docs/ci.md (block
// settings-lists), decoded from YAML into the maps golangci-lint hands the
// plugin, configures what the doc says: a row with its method (so the fix
// is offered), the older key=suggestion form, a bare key, a constructor
// row and a wait row, allow and roots.
func TestDocSettingsLists(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := docblock.All(string(doc))
	if err != nil {
		t.Fatal(err)
	}
	var body string
	for _, b := range blocks {
		if b.Name == "settings-lists" {
			body = b.Body
		}
	}
	var raw struct {
		Settings map[string]any `yaml:"settings"`
	}
	if err := yaml.Unmarshal([]byte(body), &raw); err != nil || raw.Settings == nil {
		t.Fatalf("docs/ci.md block settings-lists: %v\n%s", err, body)
	}
	cfg := configOf(t, raw.Settings)
	want := map[string]analyzer.Replacement{
		"example.com/store.(*Client).Fetch": {Use: "c.FetchContext(ctx, key)", Method: "FetchContext"},
		"example.com/store.(*Client).Save":  {Use: "c.SaveContext(ctx, v)"},
		"example.com/store.Load":            {Use: "a variant that takes the request context"},
	}
	for k, w := range want {
		if got := cfg.Blocking[k]; got != w {
			t.Errorf("blocking %s = %+v, want %+v", k, got, w)
		}
	}
	if got := cfg.Clients["example.com/store.NewPool"]; got != "a store connection pool" {
		t.Errorf("clients example.com/store.NewPool = %q, want the row's builds", got)
	}
	if got := cfg.Waits["example.com/store.(*Pool).Drain"]; got != "use p.DrainContext(ctx)" {
		t.Errorf("waits example.com/store.(*Pool).Drain = %q, want the row's hint", got)
	}
	if !cfg.Allow["example.com/cache.(*LRU).Get"] || len(cfg.Roots) != 2 {
		t.Errorf("allow %v, roots %v: not what the doc says", cfg.Allow, cfg.Roots)
	}
}
