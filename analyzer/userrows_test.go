package analyzer

import (
	"flag"
	"go/token"
	"go/types"
	"testing"

	"github.com/syncio/syncio/analyzer/internal/config"
	"github.com/syncio/syncio/analyzer/internal/dataflow"
)

// TestClientPatternRow: a client row whose key ends in "*", given as a
// -blocking flag, matches the package's functions whose name starts so,
// not a method of that name.
func TestClientPatternRow(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	var fs flag.FlagSet
	config.RegisterFlags(&fs, &cfg)
	if err := fs.Set("blocking", "a/b.F | use: f(ctx, x),example.com/sdk.NewClient* | builds: an SDK client"); err != nil {
		t.Fatal(err)
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
