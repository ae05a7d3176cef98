// Command loadyourservice serves the practice service of
// docs/load-your-service.md (package slots): GET /held keeps one of a few
// slots across its backend wait, GET /released does not, and /metrics
// shows the slots.
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
	srv := &http.Server{Addr: *addr, Handler: slots.New(slots.WithSlots(*n), slots.WithQueue(*queue), slots.WithBackendLatency(*backend)),
		ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
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
