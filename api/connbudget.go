package api

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
)

// codeTooManyConns answers a request that arrived on a reserved
// connection, past Config.MaxConns, for anything but the health probes.
const codeTooManyConns = "too_many_connections"

// DefaultMaxConns is Config.MaxConns' default: the load lab's 4000 users
// (one keep-alive connection each) with a quarter to spare, as the lab's
// own port check counts: a client that closes a connection and opens
// another holds two slots until the server has seen the close, and at
// 4096 a test reading back 4000 users' uploads through a second client
// was refused. 5000 idle keep-alives were measured at 151 MB. Start
// lowers it to fit the open-file limit.
const DefaultMaxConns = 5000

// DefaultReservedConns is Config.ReservedConns' default. A reserved
// connection lives at most reservedHeadTimeout before its request arrives,
// then serves one request: a probe (instant, or /readyz's 2 s) or a 503
// (instant; with a body, up to drainTime while it is drained). 32 take the
// probes of many balancer nodes and the churn of refusals at once, for 32
// file descriptors.
const DefaultReservedConns = 32

// reservedHeadTimeout bounds how long a reserved connection may take to
// send its request's head: a probe sends it at once, and a connection
// that sends nothing must not hold a reserved slot for ReadHeaderTimeout.
const reservedHeadTimeout = time.Second

// connBudget caps the public listener's open connections (Config.MaxConns):
// each costs a file descriptor and, idle, about 30 KB, and at the
// open-file limit accept fails and /healthz times out with everything
// else. Past the cap a connection is still accepted, on one of a few
// reserved slots (Config.ReservedConns), and serves one request: /healthz
// and /readyz are answered, anything else gets 503 too_many_connections
// with Retry-After, and the connection is closed. A client sees an answer
// it can act on, where a full backlog (a bounded listener's answer) shows
// it only a connect that hangs, and a balancer's probe is answered while
// clients hold every connection. Past both, accept waits for a slot to free
// (reserved slots turn over within seconds), so the process never holds
// more than MaxConns+ReservedConns+1 client connections.
type connBudget struct {
	slots    chan struct{} // one value per connection held within the cap
	reserved chan struct{} // one value per reserved connection held
	headTime time.Duration // reservedHeadTimeout; shorter in tests
	rejected prometheus.Counter
	waits    prometheus.Counter
}

func newConnBudget(max, reserved int, reg prometheus.Registerer) *connBudget {
	b := &connBudget{
		slots:    make(chan struct{}, max),
		reserved: make(chan struct{}, reserved),
		headTime: reservedHeadTimeout,
		rejected: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "syncio_http_connections_rejected_total",
			Help: "Requests answered 503 too_many_connections: they came on a reserved connection, past -max-conns, for another route than /healthz or /readyz.",
		}),
		waits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "syncio_http_connections_accept_waits_total",
			Help: "Connections accepted while -max-conns and -reserved-conns were both spent, which waited for a slot to free before they were served.",
		}),
	}
	reg.MustRegister(b.rejected, b.waits,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "syncio_http_connections_max",
			Help: "The cap on the public listener's open connections (-max-conns), after start-up fitted it to the open-file limit.",
		}, func() float64 { return float64(cap(b.slots)) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "syncio_http_connections_reserved",
			Help: "Open connections on the reserved slots past -max-conns (at most -reserved-conns): each serves one request, a probe or a 503.",
		}, func() float64 { return float64(len(b.reserved)) }))
	return b
}

// listen returns ln with the budget applied to what it accepts.
func (b *connBudget) listen(ln net.Listener) net.Listener {
	return &budgetListener{Listener: ln, b: b, closed: make(chan struct{})}
}

// held returns the connections open on slots and on reserved slots.
func (b *connBudget) held() (slots, reserved int) { return len(b.slots), len(b.reserved) }

type budgetListener struct {
	net.Listener
	b         *connBudget
	closed    chan struct{}
	closeOnce sync.Once
}

func (l *budgetListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	select {
	case l.b.slots <- struct{}{}:
		return l.b.conn(c, false), nil
	default:
	}
	select {
	case l.b.reserved <- struct{}{}:
		return l.b.conn(c, true), nil
	default:
	}
	// Both spent: this connection waits, and the ones after it wait in
	// the kernel's backlog, until a slot frees.
	l.b.waits.Inc()
	select {
	case l.b.slots <- struct{}{}:
		return l.b.conn(c, false), nil
	case l.b.reserved <- struct{}{}:
		return l.b.conn(c, true), nil
	case <-l.closed:
		_ = c.Close()
		return nil, net.ErrClosed
	}
}

func (l *budgetListener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// budgetConn gives its slot back when it is closed, by net/http or by
// anyone else, once.
type budgetConn struct {
	net.Conn
	slots     chan struct{}
	reserved  bool
	active    atomic.Bool // its first request's head has been read
	timer     *time.Timer // a reserved connection's head deadline, or nil
	closeOnce sync.Once
}

func (b *connBudget) conn(c net.Conn, reserved bool) *budgetConn {
	bc := &budgetConn{Conn: c, slots: b.slots, reserved: reserved}
	if reserved {
		bc.slots = b.reserved
		// net/http's head deadline is ReadHeaderTimeout, seconds a slow
		// or silent client would hold a reserved slot. Closing it here
		// is safe: a reserved connection runs only a probe or a 503,
		// neither of which changes anything.
		bc.timer = time.AfterFunc(b.headTime, func() {
			if !bc.active.Load() {
				_ = bc.Close()
			}
		})
	}
	return bc
}

func (c *budgetConn) Close() error {
	err := c.Conn.Close()
	c.closeOnce.Do(func() {
		if c.timer != nil {
			c.timer.Stop()
		}
		<-c.slots
	})
	return err
}

// CloseWrite keeps net/http's lingering close (FIN, then a pause before
// the full close), which it does only on a connection that has it.
func (c *budgetConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// connState is the http.Server ConnState hook's part for the budget: a
// connection whose head has been read is past its head deadline.
func (b *connBudget) connState(c net.Conn, state http.ConnState) {
	if bc, ok := c.(*budgetConn); ok && state == http.StateActive {
		bc.active.Store(true)
	}
}

// reservedConnKey marks, in a request's context, a request that came on a
// reserved connection.
type reservedConnKey struct{}

// connContext is the http.Server ConnContext hook.
func (b *connBudget) connContext(ctx context.Context, c net.Conn) context.Context {
	if bc, ok := c.(*budgetConn); ok && bc.reserved {
		return context.WithValue(ctx, reservedConnKey{}, true)
	}
	return ctx
}

// guard is the middleware that lets a request on a reserved connection
// reach only the health probes, and closes the connection after it, so
// the slot is back for the next probe or refusal.
func (b *connBudget) guard(c *gin.Context) {
	if c.Request.Context().Value(reservedConnKey{}) == nil {
		c.Next()
		return
	}
	c.Header("Connection", "close")
	if probe := c.FullPath() == "/healthz" || c.FullPath() == "/readyz"; probe &&
		(c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead) {
		c.Next()
		return
	}
	b.rejected.Inc()
	c.Header("Retry-After", "1")
	abortError(c, http.StatusServiceUnavailable, codeTooManyConns, "server busy: too many open connections, retry later")
}
