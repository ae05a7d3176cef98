package api

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// orphans deletes, in the background, the receipts that a failed order's
// compensation could not delete: a failed order must leave no receipt, and
// the storage that failed its upload or its profile step's sibling often
// fails the delete too. Without it such a receipt stayed for good, named
// nowhere but in one log line. Each is retried until storage deletes it,
// from one second apart doubling to a minute. What is still left when the
// server stops is logged at error level with every name, to be deleted by
// hand: the list lives in this process only (storage, the one place that
// would keep it, is what is failing).
type orphans struct {
	del         func(ctx context.Context, name string) error
	log         *slog.Logger
	first, most time.Duration // the retry interval: first, doubling up to most

	ctx    context.Context // ends at stop, and with it any delete in flight
	cancel context.CancelFunc

	mu      sync.Mutex
	pending map[string]bool
	stopped bool
	done    chan struct{} // closed when the retry goroutine returns; nil until it starts
	wake    chan struct{} // a new name is pending

	left    prometheus.Gauge
	deleted prometheus.Counter
}

// newOrphans retries del; reg (nil: none) gets its metrics.
func newOrphans(del func(ctx context.Context, name string) error, log *slog.Logger, reg prometheus.Registerer) *orphans {
	o := &orphans{
		del: del, log: log, first: time.Second, most: time.Minute,
		pending: map[string]bool{},
		wake:    make(chan struct{}, 1),
		left: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "syncio_order_orphan_receipts",
			Help: "Receipts of failed orders whose compensation could not delete them, being retried.",
		}),
		deleted: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "syncio_order_orphan_receipts_deleted_total",
			Help: "Receipts of failed orders deleted by a retry after their compensation failed to.",
		}),
	}
	o.ctx, o.cancel = context.WithCancel(context.Background())
	if reg != nil {
		reg.MustRegister(o.left, o.deleted)
	}
	return o
}

// add hands over a receipt whose deletion failed. The retry goroutine is
// started on the first one, so a server whose compensations never fail
// runs none.
func (o *orphans) add(name string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stopped {
		o.log.Error("receipt of a failed order left in storage: its deletion failed while the server stopped; delete it by hand",
			"receipts", []string{name})
		return
	}
	if o.pending[name] {
		return
	}
	o.pending[name] = true
	o.left.Set(float64(len(o.pending)))
	o.log.Warn("receipt of a failed order left in storage: its deletion failed; retrying in the background", "receipt", name)
	if o.done == nil {
		o.done = make(chan struct{})
		go o.retry()
	}
	select {
	case o.wake <- struct{}{}:
	default: // a wake-up is pending already
	}
}

// retry deletes the pending receipts, waiting first (the compensation has
// just failed), then longer after each sweep that leaves some, and for a
// new one after a sweep that leaves none. It returns at stop.
func (o *orphans) retry() {
	defer close(o.done)
	wait := o.first
	t := time.NewTimer(wait)
	defer t.Stop()
	armed := true
	for {
		select {
		case <-o.ctx.Done():
			return
		case <-o.wake:
			if !armed {
				wait = o.first
				t.Reset(wait)
				armed = true
			}
		case <-t.C:
			armed = false
			if o.sweep() {
				wait = o.first
				continue
			}
			wait = min(2*wait, o.most)
			t.Reset(wait)
			armed = true
		}
	}
}

// sweep tries each pending receipt once, and reports whether none is left.
func (o *orphans) sweep() bool {
	o.mu.Lock()
	names := make([]string, 0, len(o.pending))
	for n := range o.pending {
		names = append(names, n)
	}
	o.mu.Unlock()
	for _, n := range names {
		ctx, cancel := context.WithTimeout(o.ctx, deleteRetryTimeout)
		err := o.del(ctx, n)
		cancel()
		if err != nil {
			continue
		}
		o.mu.Lock()
		delete(o.pending, n)
		o.left.Set(float64(len(o.pending)))
		o.mu.Unlock()
		o.deleted.Inc()
		o.log.Info("receipt of a failed order deleted on retry", "receipt", n)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.pending) == 0
}

// deleteRetryTimeout bounds one retried delete.
const deleteRetryTimeout = 10 * time.Second

// stop ends the retries and logs what is left. Call it after the last
// compensation can have run (the Temporal worker stopped) and before
// storage closes. Later calls do nothing.
func (o *orphans) stop() {
	o.mu.Lock()
	if o.stopped {
		o.mu.Unlock()
		return
	}
	o.stopped = true
	o.cancel()
	done := o.done
	o.mu.Unlock()
	if done != nil {
		<-done
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.pending) > 0 {
		names := make([]string, 0, len(o.pending))
		for n := range o.pending {
			names = append(names, n)
		}
		slices.Sort(names)
		o.log.Error("receipts of failed orders left in storage: their deletion kept failing until the server stopped; delete them by hand",
			"receipts", names)
	}
}
