package blockwatch_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncio/syncio/blockwatch"
	"github.com/syncio/syncio/docs/docblock"
)

// yourService is the service of docs/blockwatch.md: its own module path,
// its handler in package main, 20 slots held across a slow call.
const yourService = `package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/syncio/syncio/blockwatch"
)

type server struct{ slots chan struct{} }

func (s *server) held(w http.ResponseWriter, r *http.Request) {
	s.slots <- struct{}{}
	defer func() { <-s.slots }()
	_, release := blockwatch.Hold(r.Context(), "slot")
	defer release()
	time.Sleep(100 * time.Millisecond) // the downstream call
	w.WriteHeader(http.StatusNoContent)
}

func main() {
	watcher := blockwatch.New(blockwatch.WithWorker("slot"), blockwatch.WithRate(50), blockwatch.WithBudget(0.5))
	go watcher.Run(context.Background())
	reg := prometheus.NewRegistry()
	reg.MustRegister(blockwatch.NewCollector(watcher))

	s := &server{slots: make(chan struct{}, 20)}
	mux := http.NewServeMux()
	mux.Handle("GET /held", blockwatch.Label("GET /held", http.HandlerFunc(s.held)))
	mux.Handle("GET /debug/syncio/blocking", watcher)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	ln, err := net.Listen("tcp", os.Args[1])
	if err != nil {
		panic(err)
	}
	fmt.Println(ln.Addr())
	_ = http.Serve(ln, mux)
}
`

// TestImportFromAClone plays a user whose service lives outside this
// repository: it runs docs/blockwatch.md's import block verbatim in a
// fresh module (the clone URL redirected to this repository's committed
// HEAD), builds the service, loads it, and checks that the watcher counts
// its package-main handler by default, in the report and on /metrics.
func TestImportFromAClone(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository and builds a service (tens of seconds)")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "blockwatch.md"))
	if err != nil {
		t.Fatal(err)
	}
	block, err := docblock.Find(string(doc), "blockwatch-clone")
	if err != nil || block.Lang != "sh" {
		t.Fatalf("docs/blockwatch.md: %v (lang %q)", err, block.Lang)
	}
	dir := filepath.Join(t.TempDir(), "yourservice")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"go.mod":  "module example.com/yourservice\n\ngo 1.26\n",
		"main.go": yourService,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const url = "https://github.com/syncio/syncio.git"
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-eo", "pipefail", "-c", block.Body)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=url."+root+".insteadOf", "GIT_CONFIG_VALUE_0="+url)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("block blockwatch-clone: %v\n%s", err, out)
	}
	if gomod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err != nil || !strings.Contains(string(gomod), "github.com/syncio/syncio => ./third_party/syncio") {
		t.Fatalf("go.mod lacks the replace (%v):\n%s", err, gomod)
	}

	bin := filepath.Join(dir, "yourservice")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("the block did not build the service: %v", err)
	}
	svc := exec.CommandContext(ctx, bin, "127.0.0.1:0")
	stdout, err := svc.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = svc.Process.Kill(); _ = svc.Wait() }()
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("service address: %v", err)
	}
	base := "http://" + strings.TrimSpace(addr)

	var wg sync.WaitGroup
	deadline := time.Now().Add(2 * time.Second)
	for range 40 { // 40 users on 20 slots
		wg.Go(func() {
			for time.Now().Before(deadline) {
				resp, err := http.Get(base + "/held")
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
			}
		})
	}
	wg.Wait()

	var rep blockwatch.Report
	get(t, base+"/debug/syncio/blocking", func(r io.Reader) error { return json.NewDecoder(r).Decode(&rep) })
	if rep.Module != "example.com/yourservice" || rep.RequestS <= 0 || len(rep.Warnings) > 0 {
		t.Fatalf("module %q, request_s %v, warnings %q: the package-main handler was not counted", rep.Module, rep.RequestS, rep.Warnings)
	}
	var held blockwatch.Site
	for _, s := range rep.Sites {
		if s.Func == "main.(*server).held" && s.Kind == blockwatch.Sleep {
			held = s
		}
	}
	if !held.HoldingWorker || held.RouteShares["GET /held"] <= 0 {
		t.Errorf("no sleep site at main.(*server).held holding a slot on GET /held: %+v", rep.Sites)
	}
	var metrics string
	get(t, base+"/metrics", func(r io.Reader) error {
		b, err := io.ReadAll(r)
		metrics = string(b)
		return err
	})
	if !strings.Contains(metrics, `syncio_blockwatch_route_request_seconds_total{route="GET /held"}`) || strings.Contains(metrics, "not_counting") {
		t.Errorf("/metrics:\n%s", metrics)
	}
}

func get(t *testing.T, url string, read func(io.Reader) error) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if err := read(resp.Body); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
}
