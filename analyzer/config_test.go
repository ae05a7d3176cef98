package analyzer

import (
	"strings"
	"testing"
)

// TestFlags configures an analyzer through its flags, as the CLI does.
func TestFlags(t *testing.T) {
	t.Parallel()
	a := New(DefaultConfig())
	for _, kv := range [][2]string{
		{"blocking", "configured.(*Store).Load=s.LoadContext(ctx, k)"},
		{"blocking", "configured.Fetcher.Fetch=FetchContext"},
		{"allow", "configured.cachedGet,net/http.Head"},
		{"roots", "configured.Job"},
		{"roots", "func(*configured.Ctx)"},
		{"tests", "true"},
	} {
		if err := a.Flags.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("-%s=%s: %v", kv[0], kv[1], err)
		}
	}
	cases.Run(t, a, "configured")
}

func TestSettings(t *testing.T) {
	t.Parallel()
	cfg, err := Settings{
		Rules:    map[string]bool{"sio006": true, "SIO005": false},
		Tests:    true,
		Blocking: []string{"example.com/store.(*Client).Fetch=c.FetchContext(ctx, k)", "example.com/legacy.Get"},
		Allow:    []string{"example.com/cache.T.Get"},
		Roots:    []string{"example.com/jobs.Run", "func(*example.com/fw.Ctx)", "func(example.com/fw.Iface)"},
	}.Config()
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Rules["SIO006"] || cfg.Rules["SIO005"] || !cfg.Rules["SIO001"] || !cfg.Tests {
		t.Errorf("rules/tests not applied: %+v tests=%v", cfg.Rules, cfg.Tests)
	}
	if got := cfg.Blocking["example.com/store.(*Client).Fetch"].Use; got != "c.FetchContext(ctx, k)" {
		t.Errorf("blocking suggestion = %q", got)
	}
	if got := cfg.Blocking["example.com/legacy.Get"].Use; got != defaultUse {
		t.Errorf("default suggestion = %q", got)
	}
	if _, ok := cfg.Blocking["net/http.Get"]; !ok {
		t.Error("built-in table lost")
	}
	if !cfg.Allow["example.com/cache.T.Get"] || len(cfg.Roots) != 3 {
		t.Errorf("allow/roots not applied: %v %v", cfg.Allow, cfg.Roots)
	}
}

func TestSettingsErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    Settings
		want string
	}{
		{Settings{Rules: map[string]bool{"SIO009": true}}, `rules: unknown rule "SIO009" (known: SIO001`},
		{Settings{Blocking: []string{"Fetch"}}, `blocking: "Fetch": want "pkg/path.Func"`},
		{Settings{Blocking: []string{"example.com/x.(*T.M"}}, `blocking: "example.com/x.(*T.M"`},
		{Settings{Blocking: []string{"example.com/x.A.B.C"}}, `blocking: "example.com/x.A.B.C"`},
		{Settings{Allow: []string{"example.com/x.F=use G"}}, `allow: "example.com/x.F=use G"`},
		{Settings{Roots: []string{"func(Ctx)"}}, `roots: "func(Ctx)": want a function`},
		{Settings{Roots: []string{"example.com/x"}}, `roots: "example.com/x"`},
	} {
		_, err := tc.s.Config()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want it to contain %q", tc.s, err, tc.want)
		}
	}
}

// TestFlagsShareParsing: the flags reject what Settings rejects, and a
// suggestion may contain commas.
func TestFlagsShareParsing(t *testing.T) {
	t.Parallel()
	a := New(DefaultConfig())
	for _, kv := range [][2]string{{"rules", "SIO001,SIO999"}, {"blocking", "nodot"}, {"allow", "x/y"}, {"roots", "func()"}} {
		if err := a.Flags.Set(kv[0], kv[1]); err == nil {
			t.Errorf("-%s=%s accepted", kv[0], kv[1])
		}
	}
	cfg := DefaultConfig()
	if err := (listFlag{&cfg, addBlocking, new([]string)}).Set("a/b.F=a.FContext(ctx, x),a/b.G"); err != nil {
		t.Fatal(err)
	}
	if got := cfg.Blocking["a/b.F"].Use; got != "a.FContext(ctx, x)" {
		t.Errorf("suggestion with a comma = %q", got)
	}
	if _, ok := cfg.Blocking["a/b.G"]; !ok {
		t.Error("second entry after a suggestion lost")
	}
	if err := a.Flags.Set("rules", "sio001,SIO006"); err != nil {
		t.Fatal(err)
	}
}

// TestReportIgnored: -report-ignored reports what //syncio:ignore hides (for
// syncio -confirm), and no ignore is then stale.
func TestReportIgnored(t *testing.T) {
	t.Parallel()
	a := New(DefaultConfig())
	if err := a.Flags.Set("report-ignored", "true"); err != nil {
		t.Fatal(err)
	}
	cases.Run(t, a, "reportignored")
}

// TestGinContextFallback: with the engine built in another package, the
// flag (and the golangci-lint setting) says c reads the request's context.
func TestGinContextFallback(t *testing.T) {
	t.Parallel()
	a := New(DefaultConfig())
	if err := a.Flags.Set("gin-context-fallback", "true"); err != nil {
		t.Fatal(err)
	}
	cases.Run(t, a, "ginflag")
	cfg, err := Settings{GinContextFallback: true}.Config()
	if err != nil || !cfg.GinContextFallback {
		t.Errorf("settings gin-context-fallback: %v, %+v", err, cfg.GinContextFallback)
	}
}
