// Package lab wires the SIO007 before/after order services to model
// databases and a model payment service, for cmd txlab and its tests.
package lab

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/syncio/syncio/examples/remediation/txio/after"
	"github.com/syncio/syncio/examples/remediation/txio/before"
	"github.com/syncio/syncio/examples/txlab/latencydb"
)

// Config sizes the lab.
type Config struct {
	Conns  int           // connections in each pool
	RTT    time.Duration // database round trip
	Charge time.Duration // payment service latency
	// Hold, when set, makes the payment service wait until it is closed
	// (or the charge's request ends) instead of Charge: tests use it to
	// catch a connection held across the call.
	Hold <-chan struct{}
}

// Lab is a running pair of order services.
type Lab struct {
	BeforeDB, AfterDB *sql.DB
	Outbox            *latencydb.Connector // the after service's database
	Charges           atomic.Int64         // charges the payment service answered

	before   *before.Orders
	after    *after.Orders
	payments *http.Server
	reg      *prometheus.Registry
	stop     context.CancelFunc // ends the outbox worker
}

// Start starts the payment service on a loopback port and the after
// service's outbox worker; both stop when ctx ends or Close is called.
func Start(ctx context.Context, cfg Config) (*Lab, error) {
	if cfg.Conns < 1 {
		return nil, fmt.Errorf("lab: Conns must be at least 1, got %d", cfg.Conns)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("lab: payment service: %w", err)
	}
	ctx, stop := context.WithCancel(ctx)
	l := &Lab{reg: prometheus.NewRegistry(), stop: stop}
	l.payments = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var charged <-chan time.Time // nil while Hold is set: only Hold ends the wait
		if cfg.Hold == nil {
			t := time.NewTimer(cfg.Charge)
			defer t.Stop()
			charged = t.C
		}
		select {
		case <-charged:
		case <-cfg.Hold:
		case <-r.Context().Done():
			return
		}
		l.Charges.Add(1)
	}), ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 120 * time.Second}
	go func() { _ = l.payments.Serve(ln) }()

	// One transport for both services, with enough idle connections that
	// the payment calls do not measure connection set-up.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4096}, Timeout: 30 * time.Second}
	url := "http://" + ln.Addr().String()

	l.BeforeDB = openDB(latencydb.New(cfg.RTT), cfg.Conns)
	l.Outbox = latencydb.New(cfg.RTT)
	l.AfterDB = openDB(l.Outbox, cfg.Conns)
	l.before = &before.Orders{DB: l.BeforeDB, Payments: &before.Payments{Client: client, URL: url}}
	l.after = &after.Orders{DB: l.AfterDB, Payments: &after.Payments{Client: client, URL: url}}
	w := &after.Worker{
		Store:       modelStore{l.AfterDB},
		Payments:    l.after.Payments,
		CallTimeout: 30 * time.Second, // the client's own timeout; the lab's payment service does not fail
		MaxAttempts: 5,
		BaseBackoff: time.Second,
		MaxBackoff:  time.Minute,
		Poll:        time.Second,
		Log:         slog.New(slog.DiscardHandler),
	}
	go w.Run(ctx)

	l.reg.MustRegister(
		collectors.NewDBStatsCollector(l.BeforeDB, "before"),
		collectors.NewDBStatsCollector(l.AfterDB, "after"),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "txlab_outbox_pending",
			Help: "Orders of the after service written to the outbox and not charged yet.",
		}, func() float64 { return float64(l.Outbox.Pending()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "txlab_charges_total",
			Help: "Charges the payment service answered.",
		}, func() float64 { return float64(l.Charges.Load()) }),
	)
	return l, nil
}

func openDB(c *latencydb.Connector, conns int) *sql.DB {
	db := sql.OpenDB(c)
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	return db
}

// Handler routes POST /before/pay/{id}, POST /after/pay/{id}, GET /metrics
// and GET /healthz.
func (l *Lab) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /before/pay/{id}", l.before.Pay)
	mux.HandleFunc("POST /after/pay/{id}", l.after.Pay)
	mux.Handle("GET /metrics", promhttp.HandlerFor(l.reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	return mux
}

// Close stops the outbox worker and the payment service and closes both
// pools.
func (l *Lab) Close() {
	l.stop()
	_ = l.payments.Close()
	_ = l.BeforeDB.Close()
	_ = l.AfterDB.Close()
}

// modelStore is the after service's outbox as the model database keeps
// it, through the statements latencydb models: the oldest row first,
// marked done with the order paid. latencydb does not parse
// after.SQLStore's claim (no leases, attempts or next_attempt_at), so
// the lab runs one worker and never retries: its payment service does
// not fail. The worker's retry, dead-letter and crash paths are tested
// against after.MemStore.
type modelStore struct{ db *sql.DB }

func (s modelStore) Claim(ctx context.Context, _ time.Duration) (after.Claim, bool, error) {
	var id string
	err := s.db.QueryRowContext(ctx, "SELECT order_id FROM outbox WHERE done = false ORDER BY id LIMIT 1").Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return after.Claim{}, false, nil
	}
	return after.Claim{OrderID: id, Attempts: 1}, err == nil, err
}

func (s modelStore) Done(ctx context.Context, c after.Claim) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it returns sql.ErrTxDone, which is expected
	if _, err := tx.ExecContext(ctx, "UPDATE outbox SET done = true WHERE order_id = $1", c.OrderID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", c.OrderID); err != nil {
		return err
	}
	return tx.Commit()
}

var errNoRetry = errors.New("lab: the model database keeps no retry state; the row is claimed again at the next poll")

func (modelStore) Retry(context.Context, after.Claim, time.Duration, string) error { return errNoRetry }
func (modelStore) Dead(context.Context, after.Claim, string) error                 { return errNoRetry }
