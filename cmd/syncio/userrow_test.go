package main

import (
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// userRowDiag is the part of a -json diagnostic this test reads.
type userRowDiag struct {
	Posn           string `json:"posn"`
	Message        string `json:"message"`
	SuggestedFixes []struct {
		Message string `json:"message"`
		Edits   []struct {
			New string `json:"new"`
		} `json:"edits"`
	} `json:"suggested_fixes"`
}

// TestUserBlockingRow: a row in the format of the built-in table
// (analyzer/internal/knowledge/blocking.txt), given to -blocking as a user
// would give it in the golangci settings' blocking list, adds an SDK call
// the table lacks. testdata/usersdk is a module whose handler calls
// sdk.(*Client).Fetch: without the row nothing is reported, with it the
// call is, with the row's replacement and a fix to its method.
func TestUserBlockingRow(t *testing.T) {
	run := userSDKRun(t)
	if diags := run(); len(diags) != 0 {
		t.Fatalf("without the row: %d findings, want none: %+v", len(diags), diags)
	}
	const row = "example.com/usersdk/sdk.(*Client).Fetch | use: client.FetchContext(ctx, key) | method: FetchContext" +
		" | verb: waits for the SDK's server without the request context | evidence: example.com/usersdk/sdk sdk.go:16"
	diags := run("-blocking", row)
	if len(diags) != 1 {
		t.Fatalf("with the row: %d findings, want 1: %+v", len(diags), diags)
	}
	d := diags[0]
	const msg = "example.com/usersdk/sdk.(*Client).Fetch waits for the SDK's server without the request context; use client.FetchContext(ctx, key) (SIO001)"
	if !strings.HasSuffix(d.Posn, filepath.Join("api", "api.go")+":17:24") || d.Message != msg {
		t.Errorf("finding %s %q,\nwant api/api.go:17:24 %q", d.Posn, d.Message, msg)
	}
	var edits []string
	for _, f := range d.SuggestedFixes {
		for _, e := range f.Edits {
			edits = append(edits, e.New)
		}
	}
	if got := strings.Join(edits, "|"); got != "FetchContext|r.Context(), " {
		t.Errorf("fix edits %q, want the method renamed and the request context inserted", got)
	}
}

// TestUserClientAndWaitRows: rows of the other kinds, given to the same
// -blocking flag, add an SIO004 constructor (a builds field) and an SIO005
// wait (a hint field) the tables lack. testdata/usersdk/pools builds the
// SDK's pool in a handler and waits for pools to drain; one pool built at
// start-up is not reported. Without the rows nothing is.
func TestUserClientAndWaitRows(t *testing.T) {
	run := userSDKRun(t)
	if diags := run(); len(diags) != 0 {
		t.Fatalf("without the rows: %d findings, want none: %+v", len(diags), diags)
	}
	diags := run("-blocking", "example.com/usersdk/sdk.NewPool | builds: the SDK's SMTP pool | evidence: example.com/usersdk/sdk sdk.go:35",
		"-blocking", "example.com/usersdk/sdk.(*Pool).Drain | hint: use p.DrainContext(ctx)")
	var got []string
	for _, d := range diags {
		_, posn, _ := strings.Cut(filepath.ToSlash(d.Posn), "usersdk/")
		got = append(got, posn+" "+d.Message)
	}
	sort.Strings(got)
	want := []string{
		"pools/pools.go:18:7 sdk.NewPool builds the SDK's SMTP pool on every request: each one opens its own connections, pays TCP and TLS handshakes again and keeps no warm keep-alive connection; build it once at start-up and share it; it is safe for concurrent use (SIO004)",
		"pools/pools.go:19:2 example.com/usersdk/sdk.(*Pool).Drain waits with no way to cancel it; use p.DrainContext(ctx) (SIO005)",
		"pools/pools.go:20:2 example.com/usersdk/sdk.(*Pool).Drain waits with no way to cancel it; use p.DrainContext(ctx) (SIO005)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("with the rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// userSDKRun returns a function that runs syncio -json on
// testdata/usersdk with the given flags and returns its findings.
func userSDKRun(t *testing.T) func(args ...string) []userRowDiag {
	bin := syncioBinary(t)
	return func(args ...string) []userRowDiag {
		t.Helper()
		cmd := exec.Command(bin, append(args, "-json", "./...")...)
		cmd.Dir = filepath.Join("testdata", "usersdk")
		cmd.Env = append(cmd.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
		out, runErr := cmd.Output()
		var exit *exec.ExitError
		if runErr != nil && !errors.As(runErr, &exit) {
			t.Fatalf("syncio %v: %v", args, runErr)
		}
		var tree map[string]map[string]json.RawMessage
		if err := json.Unmarshal(out, &tree); err != nil {
			t.Fatalf("syncio %v: %v\n%s%s", args, err, out, stderrOf(runErr))
		}
		var diags []userRowDiag
		for pkg, byAnalyzer := range tree {
			for _, raw := range byAnalyzer {
				var ds []userRowDiag
				if err := json.Unmarshal(raw, &ds); err != nil {
					t.Fatalf("%s: %s", pkg, raw)
				}
				diags = append(diags, ds...)
			}
		}
		return diags
	}
}

func stderrOf(err error) string {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(exit.Stderr)
	}
	return ""
}
