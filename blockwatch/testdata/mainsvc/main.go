// Command mainsvc is a service the way most small ones are written: its
// handler is in package main, so its frames are named main.(*server).held,
// whatever the module's path. It serves one labelled request that waits
// holding a worker, samples it with a default Watcher (no WithModule), and
// prints the report's JSON, then the /metrics text.
package main

import (
	"context"
	"encoding/json"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/syncio/syncio/blockwatch"
)

type server struct{ release chan struct{} }

//go:noinline
func (s *server) held(ctx context.Context) {
	_, release := blockwatch.Hold(ctx, "pool")
	defer release()
	<-s.release
}

func main() {
	s := &server{release: make(chan struct{})}
	go blockwatch.Do(context.Background(), "GET /held", s.held)

	w := blockwatch.New(blockwatch.WithRate(100), blockwatch.WithBudget(1), blockwatch.WithWindow(time.Second, 1))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx) }()
	for deadline := time.Now().Add(20 * time.Second); w.Report().Samples < 10; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			log.Fatal("no samples in 20 s")
		}
	}
	cancel()
	<-done
	close(s.release)

	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(w.Report()); err != nil {
		log.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(blockwatch.NewCollector(w))
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	_, _ = os.Stdout.Write(rec.Body.Bytes())
}
