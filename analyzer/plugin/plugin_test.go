package plugin

import (
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/syncio/syncio/analyzer"
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
