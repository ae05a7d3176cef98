// Command txlab serves the remediation guide's SIO007 pair side by side so
// that syncio-load can measure what a transaction held across a remote call
// costs: POST /before/pay/{id} is txio/before (the payment call inside the
// transaction), POST /after/pay/{id} is txio/after (an outbox row, charged
// by a worker off the request path). Each has its own connection pool of
// -conns connections to a model database (every round trip -rtt), and both
// call one model payment service that answers after -charge. GET /metrics
// exports each pool's sql.DBStats (db_name="before" and "after") and the
// outbox backlog.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/syncio/syncio/examples/txlab/lab"
)

func main() {
	cfg := lab.Config{}
	addr := flag.String("addr", "127.0.0.1:8090", "listen address")
	flag.IntVar(&cfg.Conns, "conns", 10, "connections in each pool (sql.DB.SetMaxOpenConns)")
	flag.DurationVar(&cfg.RTT, "rtt", 2*time.Millisecond, "database round trip (Begin, each statement, Commit)")
	flag.DurationVar(&cfg.Charge, "charge", 100*time.Millisecond, "payment service latency")
	flag.Parse()
	if err := run(*addr, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "txlab:", err)
		os.Exit(1)
	}
}

func run(addr string, cfg lab.Config) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on -addr %s: %w", addr, err)
	}
	l, err := lab.Start(ctx, cfg)
	if err != nil {
		return err
	}
	defer l.Close()
	srv := &http.Server{Handler: l.Handler(), ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 120 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	slog.Info("txlab serving", "url", "http://"+ln.Addr().String(), "conns", cfg.Conns, "rtt", cfg.RTT, "charge", cfg.Charge)
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
