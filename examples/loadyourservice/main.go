// Command loadyourservice serves the practice service of
// docs/load-your-service.md (package slots): GET /held keeps one of a few
// slots across its backend wait, GET /released does not, and /metrics
// shows the slots. It wires blockwatch in here, in package main, as a
// service of one's own would: /metrics then also has the watcher's
// totals, and /debug/syncio/blocking its report.
//
//	go run ./examples/loadyourservice -addr 127.0.0.1:8090
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/syncio/syncio/blockwatch"
	"github.com/syncio/syncio/examples/loadyourservice/slots"
)

func main() {
	fs := flag.NewFlagSet("loadyourservice", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8090", "listen `address`")
	n := fs.Int("slots", 4, "slots (the bounded resource)")
	queue := fs.Int("queue", 64, "requests that may wait for a slot before the rest get 503")
	backend := fs.Duration("backend-latency", 100*time.Millisecond, "the backend's answer time")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
	if *n < 1 || *queue < 0 || *backend < 0 {
		fmt.Fprintf(os.Stderr, "loadyourservice: -slots %d must be at least 1, -queue %d and -backend-latency %s not negative\n", *n, *queue, *backend)
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The slot is the bounded resource: time blocked while holding one is
	// what the watcher reports as blocked holding a worker.
	watcher := blockwatch.New(blockwatch.WithWorker(slots.SlotResource), blockwatch.WithLogger(log))
	go watcher.Run(ctx)
	srv := &http.Server{Addr: *addr, Handler: slots.New(slots.WithSlots(*n), slots.WithQueue(*queue), slots.WithBackendLatency(*backend), slots.WithWatcher(watcher)),
		IdleTimeout:       120 * time.Second,
		ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx) // exiting anyway
	}()
	log.Info("serving", "addr", *addr, "slots", *n, "queue", *queue, "backend_latency", *backend)
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("serve", "err", err)
		os.Exit(1)
	}
}
