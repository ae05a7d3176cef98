package api

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestMemoryLimitFor: the default limit with external storage, none with
// the embedded fake in the process.
func TestMemoryLimitFor(t *testing.T) {
	if got := MemoryLimitFor(Config{StorageConnectionString: "BlobEndpoint=http://127.0.0.1:1/a;"}); got != DefaultMemoryLimit {
		t.Errorf("external storage: %d, want %d", got, DefaultMemoryLimit)
	}
	if got := MemoryLimitFor(Config{}); got != 0 {
		t.Errorf("embedded storage: %d, want 0 (none)", got)
	}
}

// TestSetMemoryLimit: the limit given is the one in force; 0 means none;
// GOMEMLIMIT wins over a default but not over an explicit flag.
func TestSetMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	t.Setenv("GOMEMLIMIT", "")

	if got := SetMemoryLimit(DefaultMemoryLimit, false); got != DefaultMemoryLimit || debug.SetMemoryLimit(-1) != DefaultMemoryLimit {
		t.Errorf("default: returned %d, in force %d; want %d", got, debug.SetMemoryLimit(-1), DefaultMemoryLimit)
	}
	if got := SetMemoryLimit(0, true); got != math.MaxInt64 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Errorf("0: returned %d, in force %d; want no limit", got, debug.SetMemoryLimit(-1))
	}

	t.Setenv("GOMEMLIMIT", "100MiB")
	debug.SetMemoryLimit(100 << 20) // what the runtime did at start with that environment
	if got := SetMemoryLimit(DefaultMemoryLimit, false); got != 100<<20 || debug.SetMemoryLimit(-1) != 100<<20 {
		t.Errorf("GOMEMLIMIT and the default: returned %d, in force %d; want GOMEMLIMIT's %d", got, debug.SetMemoryLimit(-1), 100<<20)
	}
	if got := SetMemoryLimit(200<<20, true); got != 200<<20 || debug.SetMemoryLimit(-1) != 200<<20 {
		t.Errorf("GOMEMLIMIT and an explicit flag: returned %d, in force %d; want the flag's %d", got, debug.SetMemoryLimit(-1), 200<<20)
	}
}
