package main

import (
	"math"
	"strings"
	"testing"

	"github.com/syncio/syncio/api"
)

// TestMemoryLimitAndUploadSlots: the process runs under -memory-limit
// (by default none with the embedded blob fake, api.MemoryLimitFor;
// GOMEMLIMIT wins over the default, not over the flag), and
// -max-inflight-uploads reaches the API, as its /metrics read them. The
// default with external storage is TestStorageChild's, in syncio-load.
func TestMemoryLimitAndUploadSlots(t *testing.T) {
	base := []string{"-addr", "127.0.0.1:0", "-storage-latency", "0", "-storage-bandwidth", "0"}
	for _, tc := range []struct {
		name, env string
		args      []string
		limit     float64
		slots     float64
	}{
		// The embedded blob fake is in the process: no limit by default
		// (9.223372036854776e+18 is math.MaxInt64, none).
		{"defaults", "", nil, math.MaxInt64, float64(api.DefaultConfig().MaxInflightUploads)},
		{"flags", "", []string{"-memory-limit", "104857600", "-max-inflight-uploads", "7"}, 100 << 20, 7},
		{"GOMEMLIMIT", "150MiB", nil, 150 << 20, float64(api.DefaultConfig().MaxInflightUploads)},
		{"GOMEMLIMIT and the flag", "150MiB", []string{"-memory-limit", "104857600"}, 100 << 20, float64(api.DefaultConfig().MaxInflightUploads)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", tc.env)
			c := startChild(t, append(base, tc.args...)...)
			if got := c.metric(t, "syncio_memory_limit_bytes"); got != tc.limit {
				t.Errorf("syncio_memory_limit_bytes %v, want %v", got, tc.limit)
			}
			if got := c.metric(t, "syncio_upload_inflight_max_uploads"); got != tc.slots {
				t.Errorf("syncio_upload_inflight_max_uploads %v, want %v", got, tc.slots)
			}
		})
	}
}

// TestConnFlags: -max-conns, -reserved-conns and -idle-timeout reach the
// API, as its listening line and /metrics report them; without them the
// cap is api.DefaultMaxConns.
func TestConnFlags(t *testing.T) {
	base := []string{"-addr", "127.0.0.1:0", "-storage-latency", "0", "-storage-bandwidth", "0"}
	for _, tc := range []struct {
		name  string
		args  []string
		line  string
		limit float64
	}{
		{"defaults", nil, "max_conns=4096 reserved_conns=32 idle_timeout=1m15s", api.DefaultMaxConns},
		{"flags", []string{"-max-conns", "7", "-reserved-conns", "3", "-idle-timeout", "5s"}, "max_conns=7 reserved_conns=3 idle_timeout=5s", 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := startChild(t, append(base, tc.args...)...)
			if !strings.Contains(c.log.String(), tc.line) {
				t.Errorf("the listening line lacks %q", tc.line)
			}
			if got := c.metric(t, "syncio_http_connections_max"); got != tc.limit {
				t.Errorf("syncio_http_connections_max %v, want %v", got, tc.limit)
			}
		})
	}
}
