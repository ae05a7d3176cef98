package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/syncio/syncio/docs/docblock"
	"github.com/syncio/syncio/loadtest/report"
)

// TestRemediationPathCommands runs the load commands of the remediation
// guide's short path (docs/remediation.md, steps 2 and 5) verbatim, with
// their two addresses pointed at servers of the test's own and a shorter
// schedule appended: step 2 sets its own user steps (the lab's default
// profile goes to 4 000 users) and loads each route it names; step 5 sends
// the candidate to the fixed build on another port.
func TestRemediationPathCommands(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "remediation.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := func(name string) []string {
		t.Helper()
		b, err := docblock.Find(string(doc), name)
		if err != nil {
			t.Fatal(err)
		}
		args := words(t, b.Body)
		if len(args) < 2 || args[0] != "bin/syncio-load" {
			t.Fatalf("block %s is %q, want a bin/syncio-load command", name, args)
		}
		return args[1:]
	}
	type server struct {
		url  string
		hits atomic.Int64
	}
	serve := func() *server {
		s := &server{}
		mux := http.NewServeMux()
		for _, p := range []string{"GET /v1/price/99", "GET /v1/quote/99"} {
			mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) { s.hits.Add(1) })
		}
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)
		s.url = srv.URL
		return s
	}
	short := []string{"-users", "1,4", "-warmup", "0s", "-settle", "200ms", "-measure", "500ms",
		"-top-settle", "300ms", "-top-measure", "700ms", "-quiet"}

	// Step 2: its own user steps, and every route it names is loaded.
	load := block("path-load")
	o, err := parseRun(load, &strings.Builder{})
	if err != nil {
		t.Fatalf("path-load: %v", err)
	}
	if got := o.cfg.Profile.Users; slices.Max(got) > 200 {
		t.Errorf("path-load steps up to %d users; the short path keeps to a few hundred", slices.Max(got))
	}
	if len(o.cfg.Scenarios) < 2 {
		t.Errorf("path-load loads %d routes; it should show one -endpoint per flagged route", len(o.cfg.Scenarios))
	}
	old := serve()
	dir := t.TempDir()
	args := slices.Clone(load)
	for i := range args {
		args[i] = strings.ReplaceAll(args[i], "http://127.0.0.1:8080", old.url)
	}
	runOK(t, append(append(args, short...), "-out", dir), dir)
	sum, err := report.ReadJSON(filepath.Join(dir, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range sum.Scenarios {
		if ok := sc.Steps[len(sc.Steps)-1].OK; ok == 0 {
			t.Errorf("path-load: route %s answered no OK at the top step", sc.Name)
		}
	}

	// Step 5: the candidate is the fixed build, on its own port.
	fixed := serve()
	verify := block("path-verify")
	dir = t.TempDir()
	args = slices.Clone(verify)
	for i := range args {
		args[i] = strings.ReplaceAll(args[i], "http://127.0.0.1:8080", old.url)
		args[i] = strings.ReplaceAll(args[i], "http://127.0.0.1:8081", fixed.url)
	}
	before := old.hits.Load()
	runOK(t, append(append(args, short...), "-out", dir), dir)
	sum, err = report.ReadJSON(filepath.Join(dir, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Pair == nil || sum.Pair.Baseline != "before" || sum.Pair.Candidate != "after" {
		t.Fatalf("path-verify pair %+v, want before against after", sum.Pair)
	}
	if fixed.hits.Load() == 0 || old.hits.Load() == before {
		t.Errorf("path-verify: %d requests reached the fixed build, %d the old one; want both loaded", fixed.hits.Load(), old.hits.Load()-before)
	}
}
