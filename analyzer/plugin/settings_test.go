package plugin

import (
	"errors"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/syncio/syncio/analyzer"
)

// The raw settings are built the way golangci-lint hands them over: maps of
// any decoded from YAML, with keys lower-cased by its config loader.
func TestNewDecodesSettings(t *testing.T) {
	tests := []struct {
		name string
		raw  any
		want map[string]bool // enabled rules
	}{
		{"no settings", nil, enabledByDefault()},
		{"empty settings", map[string]any{}, enabledByDefault()},
		{
			"map toggles relative to defaults, lower-cased keys",
			map[string]any{"rules": map[string]any{"sio006": true, "sio005": false}},
			withRules(enabledByDefault(), map[string]bool{"SIO006": true, "SIO005": false}),
		},
		{
			"list is the exact enabled set, like -rules",
			map[string]any{"rules": []any{"SIO001", "sio002"}},
			map[string]bool{"SIO001": true, "SIO002": true},
		},
		{"tests false is the current behaviour", map[string]any{"tests": false}, enabledByDefault()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := register.DecodeSettings[Settings](tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := s.Config()
			if err != nil {
				t.Fatal(err)
			}
			if got := onRules(cfg); !sameSet(got, tt.want) {
				t.Errorf("enabled rules = %v, want %v", got, tt.want)
			}
			p, err := New(tt.raw)
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
		})
	}
}

func TestBlockingSetting(t *testing.T) {
	raw := map[string]any{"blocking": []any{
		"example.com/store.(*Client).Fetch=store.(*Client).FetchContext(ctx, key)",
		"example.com/store.Load",
	}}
	s, err := register.DecodeSettings[Settings](raw)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Blocking["example.com/store.(*Client).Fetch"].Use; got != "store.(*Client).FetchContext(ctx, key)" {
		t.Errorf("Fetch suggestion = %q", got)
	}
	if got := cfg.Blocking["example.com/store.Load"].Use; got != defaultUse {
		t.Errorf("Load suggestion = %q, want the default %q", got, defaultUse)
	}
	// The built-in table is kept.
	if _, ok := cfg.Blocking["net/http.Get"]; !ok {
		t.Error("built-in net/http.Get entry lost")
	}
}

func TestSettingsErrors(t *testing.T) {
	tests := []struct {
		name        string
		raw         any
		unsupported bool
		mention     string
	}{
		{"unknown key", map[string]any{"rule": []any{"SIO001"}}, false, `"rule"`},
		{"unknown rule in list", map[string]any{"rules": []any{"SIO999"}}, false, `"SIO999"`},
		{"unknown rule in map", map[string]any{"rules": map[string]any{"nope": true}}, false, `"nope"`},
		{"rules of the wrong type", map[string]any{"rules": "SIO001"}, false, "rules"},
		{"bad blocking entry", map[string]any{"blocking": []any{"Fetch=x"}}, false, `"Fetch=x"`},
		{"tests true", map[string]any{"tests": true}, true, `"tests"`},
		{"allow", map[string]any{"allow": []any{"example.com/cache.Get"}}, true, `"allow"`},
		{"roots", map[string]any{"roots": []any{"example.com/rpc.Handle"}}, true, `"roots"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.raw)
			if err == nil {
				t.Fatal("New succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tt.mention) {
				t.Errorf("error %q does not name %s", err, tt.mention)
			}
			if got := errors.Is(err, ErrUnsupported); got != tt.unsupported {
				t.Errorf("errors.Is(err, ErrUnsupported) = %v, want %v (err: %v)", got, tt.unsupported, err)
			}
		})
	}
}

func TestRegistered(t *testing.T) {
	if _, err := register.GetPlugin(analyzer.Name); err != nil {
		t.Fatal(err)
	}
}

func enabledByDefault() map[string]bool { return onRules(analyzer.DefaultConfig()) }

func withRules(base, changes map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range changes {
		out[k] = v
	}
	return onRules(analyzer.Config{Rules: out})
}

func onRules(cfg analyzer.Config) map[string]bool {
	out := map[string]bool{}
	for id, on := range cfg.Rules {
		if on {
			out[id] = true
		}
	}
	return out
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}
