package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestAssertExitCodes: -assert sets the exit code on the final summary
// and names the expression and its values; a scenario with no OK response
// exits 4 even without -assert; an unknown field is a usage error.
func TestAssertExitCodes(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /slow", func(w http.ResponseWriter, r *http.Request) { time.Sleep(20 * time.Millisecond) })
	mux.HandleFunc("GET /fast", func(w http.ResponseWriter, r *http.Request) {})
	srv := httptest.NewServer(mux) // anything else answers 404
	defer srv.Close()
	sched := []string{"-users", "1,4", "-warmup", "0s", "-settle", "200ms", "-measure", "500ms", "-top-settle", "200ms", "-top-measure", "700ms", "-quiet"}
	for _, c := range []struct {
		name string
		args []string
		code int
		want []string // in stderr
	}{
		{"holds", []string{"-endpoint", "slow=GET /slow", "-endpoint", "fast=GET /fast", "-assert", "candidate.ok_per_s >= 2*baseline.ok_per_s", "-assert", "candidate.errors == 0"}, exitOK, []string{"2 assertions held"}},
		{"false", []string{"-endpoint", "slow=GET /slow", "-endpoint", "fast=GET /fast", "-assert", "baseline.ok_per_s >= 2*candidate.ok_per_s"}, exitAssert,
			[]string{"assertion failed: baseline.ok_per_s >= 2*candidate.ok_per_s (baseline.ok_per_s = ", "candidate.ok_per_s = "}},
		{"all 404", []string{"-endpoint", "slow=GET /slow", "-endpoint", "gone=GET /gone"}, exitAllFailed, []string{"scenario gone: all", "404:"}},
		{"unknown field", []string{"-endpoint", "slow=GET /slow", "-assert", "candidate.rps > 1"}, exitUsage, []string{"-assert", "unknown field candidate.rps"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"-target", srv.URL, "-out", t.TempDir()}, c.args...), sched...)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, &stdout, &stderr)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr.String())
			}
			for _, w := range c.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
				}
			}
		})
	}
}
