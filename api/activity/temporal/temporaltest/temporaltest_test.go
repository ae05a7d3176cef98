package temporaltest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBinaryFromEnv(t *testing.T) {
	p := filepath.Join(t.TempDir(), "temporal")
	if err := os.WriteFile(p, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvBinary, p)
	if got, err := Binary(); err != nil || got != p {
		t.Errorf("Binary() = %q, %v; want %q", got, err, p)
	}
	missing := p + "-missing"
	t.Setenv(EnvBinary, missing)
	if _, err := Binary(); err == nil || !strings.Contains(err.Error(), EnvBinary+"="+missing) {
		t.Errorf("Binary() with a missing file: %v, want an error naming %s", err, EnvBinary)
	}
}

// Without the variable, the CLI is bin/temporal at the module root, which
// `make temporal` builds.
func TestBinaryAtModuleRoot(t *testing.T) {
	t.Setenv(EnvBinary, "")
	got, err := Binary()
	root, _ := filepath.Abs("../../../..")
	want := filepath.Join(root, "bin", "temporal")
	if _, statErr := os.Stat(want); statErr != nil {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Binary() = %q, %v; want an error naming %s", got, err, want)
		}
		return
	}
	if err != nil || got != want {
		t.Errorf("Binary() = %q, %v; want %q", got, err, want)
	}
}
