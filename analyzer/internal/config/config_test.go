package config

import (
	"flag"
	"strings"
	"testing"
)

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
	var fs flag.FlagSet
	RegisterFlags(&fs, new(Default()))
	for _, kv := range [][2]string{{"rules", "SIO001,SIO999"}, {"blocking", "nodot"}, {"allow", "x/y"}, {"roots", "func()"}} {
		if err := fs.Set(kv[0], kv[1]); err == nil {
			t.Errorf("-%s=%s accepted", kv[0], kv[1])
		}
	}
	cfg := Default()
	if err := (listFlag{&cfg, addBlocking, new([]string)}).Set("a/b.F=a.FContext(ctx, x),a/b.G"); err != nil {
		t.Fatal(err)
	}
	if got := cfg.Blocking["a/b.F"].Use; got != "a.FContext(ctx, x)" {
		t.Errorf("suggestion with a comma = %q", got)
	}
	if _, ok := cfg.Blocking["a/b.G"]; !ok {
		t.Error("second entry after a suggestion lost")
	}
	if err := fs.Set("rules", "sio001,SIO006"); err != nil {
		t.Fatal(err)
	}
}

// TestSettingsRows: a blocking entry may be a row of the built-in table's
// format, with every Replacement field; the older key=suggestion form
// still works, a "|" inside its suggestion included; a bad row names the
// field.
func TestSettingsRows(t *testing.T) {
	t.Parallel()
	cfg, err := Settings{Blocking: []string{
		"example.com/store.(*Client).Begin | use: c.BeginTx(ctx, nil) | method: BeginTx | extra-args: nil | verb: starts a transaction | evidence: example.com/store@v1 tx.go:9",
		"example.com/store.Load | method: LoadContext",
		"example.com/store.Old=a | b",
	}}.Config()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Replacement{
		"example.com/store.(*Client).Begin": {Use: "c.BeginTx(ctx, nil)", Verb: "starts a transaction", Method: "BeginTx", ExtraArgs: "nil"},
		"example.com/store.Load":            {Use: defaultUse, Method: "LoadContext"},
		"example.com/store.Old":             {Use: "a | b"},
	}
	for k, w := range want {
		if got := cfg.Blocking[k]; got != w {
			t.Errorf("%s = %+v, want %+v", k, got, w)
		}
	}
	for _, tc := range []struct{ entry, want string }{
		{"example.com/x.F | usage: y", `blocking: example.com/x.F: field "usage: y": want one of kind, use, method`},
		{"example.com/x.F | use: y | extra-args: nil", `blocking: example.com/x.F: extra-args without method`},
		{"x.F(| use: y", `blocking: "x.F(": want "pkg/path.Func"`},
	} {
		_, err := Settings{Blocking: []string{tc.entry}}.Config()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.entry, err, tc.want)
		}
	}
}

// TestFlagRowsWithCommas: -blocking splits on commas but keeps a row's
// values, commas and all, and starts a new entry at the next key.
func TestFlagRowsWithCommas(t *testing.T) {
	t.Parallel()
	cfg := Default()
	var got []string
	if err := (listFlag{&cfg, addBlocking, &got}).Set("a/b.F | use: a.FContext(ctx, x, y) | method: FContext,a/b.G | use: g(ctx, 1)"); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("entries %q, want 2", got)
	}
	if r := cfg.Blocking["a/b.F"]; r.Use != "a.FContext(ctx, x, y)" || r.Method != "FContext" {
		t.Errorf("a/b.F = %+v", r)
	}
	if r := cfg.Blocking["a/b.G"]; r.Use != "g(ctx, 1)" {
		t.Errorf("a/b.G = %+v", r)
	}
}

// TestFlagPatternRow: a client row whose key ends in "*" starts a new
// -blocking entry after a comma, like any key.
func TestFlagPatternRow(t *testing.T) {
	t.Parallel()
	cfg := Default()
	var got []string
	if err := (listFlag{&cfg, addBlocking, &got}).Set("a/b.F | use: f(ctx, x),example.com/sdk.NewClient* | builds: an SDK client"); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || cfg.Clients["example.com/sdk.NewClient*"] != "an SDK client" {
		t.Fatalf("entries %q, clients row %q", got, cfg.Clients["example.com/sdk.NewClient*"])
	}
}

// TestRulesHelpSaysDefaultOnce: the flag package appends a Value's
// default to its usage, so a usage string that states the default too
// reads "(default: …) (default …)".
func TestRulesHelpSaysDefaultOnce(t *testing.T) {
	t.Parallel()
	fs := flag.NewFlagSet("syncio", flag.ContinueOnError)
	var out strings.Builder
	fs.SetOutput(&out)
	cfg := Default()
	RegisterFlags(fs, &cfg)
	fs.PrintDefaults()
	_, entry, _ := strings.Cut(out.String(), "  -rules ")
	entry, _, _ = strings.Cut(entry, "\n  -")
	if n := strings.Count(entry, "default"); n != 1 {
		t.Errorf("-rules help says default %d times, want once:\n%s", n, entry)
	}
	for _, want := range []string{"SIO001,SIO002,SIO003,SIO004,SIO005,SIO007,SIO008", "SIO006"} {
		if !strings.Contains(entry, want) {
			t.Errorf("-rules help lacks %q:\n%s", want, entry)
		}
	}
}
