package analyzer

import (
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
)

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
	cfg := DefaultConfig()
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
// -blocking entry after a comma, like any key, and its pattern matches the
// package's functions whose name starts so, not a method of that name.
func TestFlagPatternRow(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	var got []string
	if err := (listFlag{&cfg, addBlocking, &got}).Set("a/b.F | use: f(ctx, x),example.com/sdk.NewClient* | builds: an SDK client"); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || cfg.Clients["example.com/sdk.NewClient*"] != "an SDK client" {
		t.Fatalf("entries %q, clients row %q", got, cfg.Clients["example.com/sdk.NewClient*"])
	}
	pkg := types.NewPackage("example.com/sdk", "sdk")
	sig := types.NewSignatureType(nil, nil, nil, nil, nil, false)
	fn := types.NewFunc(token.NoPos, pkg, "NewClientFromURL", sig)
	if what := dataflow.ClientCtor(cfg.Clients, fn, "example.com/sdk.NewClientFromURL"); what != "an SDK client" {
		t.Errorf("NewClientFromURL builds %q, want the pattern row's", what)
	}
	recv := types.NewVar(token.NoPos, pkg, "c", types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, pkg, "T", nil), types.NewStruct(nil, nil), nil)))
	m := types.NewFunc(token.NoPos, pkg, "NewClientX", types.NewSignatureType(recv, nil, nil, nil, nil, false))
	if what := dataflow.ClientCtor(cfg.Clients, m, "example.com/sdk.(*T).NewClientX"); what != "" {
		t.Errorf("a method NewClientX builds %q, want no match", what)
	}
}

// TestNoIORow: a call into a dependency that takes a context first is
// presumed to do I/O; a noio row, built in (x/oauth2's
// Config.TokenSource) or a user's, says it does none, and an io row still
// says it does.
func TestNoIORow(t *testing.T) {
	t.Parallel()
	cfg, err := Settings{Blocking: []string{
		"example.com/sdk.(*Config).Build | kind: noio | evidence: keeps ctx in what it returns",
	}}.Config()
	if err != nil {
		t.Fatal(err)
	}
	ctxType := types.NewNamed(types.NewTypeName(token.NoPos, types.NewPackage("context", "context"), "Context", nil), types.NewInterfaceType(nil, nil), nil)
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, nil, "ctx", ctxType)), nil, false)
	for _, tc := range []struct {
		pkg, key string
		want     bool
	}{
		{"example.com/sdk", "example.com/sdk.(*Config).Build", false},
		{"example.com/sdk", "example.com/sdk.(*Config).Fetch", true}, // presumed
		{"golang.org/x/oauth2", "golang.org/x/oauth2.(*Config).TokenSource", false},
		{"golang.org/x/oauth2", "golang.org/x/oauth2.(*Config).Exchange", true},
	} {
		fn := types.NewFunc(token.NoPos, types.NewPackage(tc.pkg, "p"), "F", sig)
		if got := dataflow.IsIOCall(cfg.IO, fn, sig, tc.key, "example.com/app"); got != tc.want {
			t.Errorf("%s: IsIOCall %v, want %v", tc.key, got, tc.want)
		}
	}
}
