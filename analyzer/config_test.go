package analyzer

import (
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
	on := true
	cfg, err := Settings{GinContextFallback: &on}.Config()
	if err != nil || cfg.GinContextFallback == nil || !*cfg.GinContextFallback {
		t.Errorf("settings gin-context-fallback: %v, %v", err, cfg.GinContextFallback)
	}
	if cfg, _ := (Settings{}).Config(); cfg.GinContextFallback != nil {
		t.Errorf("settings without gin-context-fallback: %v, want unset (decided from the program)", *cfg.GinContextFallback)
	}
}
