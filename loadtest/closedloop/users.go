package closedloop

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// minWait is the least a user waits after a 503 or an error.
const minWait = 100 * time.Millisecond

// Target is the single request every user of an attack repeats.
type Target struct {
	Attack string // the vegeta attack name recorded in each Result
	Method string
	URL    string
	Header http.Header
	Body   []byte
	// BodyFor, when set, makes the n-th request's body (n counts from 0
	// across the attack's users) instead of Body: a request that must be
	// unique, such as an order whose ID the API keeps, cannot be repeated
	// byte for byte.
	BodyFor func(n uint64) []byte
}

// Attack is a growing set of closed-loop users hitting one Target.
type Attack struct {
	target   Target
	client   *http.Client
	emit     func(*vegeta.Result)
	fallback time.Duration
	maxWait  time.Duration
	errWait  time.Duration

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	users  int

	// seqMu makes Seq and Timestamp share one total order, which vegeta's
	// HTML plot relies on.
	seqMu sync.Mutex
	seq   uint64
	// bodies numbers the requests given to Target.BodyFor.
	bodies atomic.Uint64
}

// Option configures an Attack.
type Option func(*Attack)

// WithClient sets the HTTP client; see NewTransport for a suitable one.
func WithClient(c *http.Client) Option { return func(a *Attack) { a.client = c } }

// WithRetryAfter sets the wait used after a 503 without a usable
// Retry-After header, and the cap on any advertised wait.
func WithRetryAfter(fallback, max time.Duration) Option {
	return func(a *Attack) { a.fallback, a.maxWait = fallback, max }
}

// WithErrorBackoff sets the wait after any failed request other than a
// 503 (a transport error, a 4xx or 5xx, a body cut short), so a refused
// connection, a failing backend or a wrong target cannot turn a user into
// a spinning loop.
func WithErrorBackoff(d time.Duration) Option { return func(a *Attack) { a.errWait = d } }

// New prepares an attack with no users yet. emit receives every completed
// Result, from many goroutines at once, and must be safe for that. Results
// of requests cut short by Stop are not emitted.
func New(ctx context.Context, t Target, emit func(*vegeta.Result), opts ...Option) *Attack {
	a := &Attack{
		target:   t,
		client:   &http.Client{Transport: NewTransport(0, 0)},
		emit:     emit,
		fallback: time.Second,
		maxWait:  30 * time.Second,
		errWait:  time.Second,
	}
	for _, o := range opts {
		o(a)
	}
	a.ctx, a.cancel = context.WithCancel(ctx)
	return a
}

// NewTransport returns a keep-alive transport sized for users concurrent
// connections to one host. Without enough idle connections per host,
// closed sockets pile up in TIME_WAIT and exhaust the ephemeral ports.
// headerTimeout bounds the wait for response headers (0 = none).
func NewTransport(users int, headerTimeout time.Duration) *http.Transport {
	if users < 2 {
		users = 2
	}
	return &http.Transport{
		Proxy: nil, // loopback load must never go through a proxy
		DialContext: (&net.Dialer{
			Timeout:   10 * time.Second,
			KeepAlive: 30 * time.Second,
		}).DialContext,
		MaxIdleConns:          users + users/10,
		MaxIdleConnsPerHost:   users + users/10,
		IdleConnTimeout:       90 * time.Second,
		ResponseHeaderTimeout: headerTimeout,
		DisableCompression:    true,
	}
}

// Users is the number of users started so far.
func (a *Attack) Users() int { return a.users }

// SetUsers grows the attack to n users; it never removes users. It is not
// safe for concurrent use with itself or Stop.
func (a *Attack) SetUsers(n int) {
	for ; a.users < n; a.users++ {
		a.wg.Add(1)
		go a.user()
	}
}

// Stop cancels in-flight requests and waits for every user to return.
func (a *Attack) Stop() {
	a.cancel()
	a.wg.Wait()
}

func (a *Attack) user() {
	defer a.wg.Done()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for a.ctx.Err() == nil {
		res, hdr := a.hit()
		if a.ctx.Err() != nil {
			return // cut short by Stop: not a measurement
		}
		a.emit(res)
		var wait time.Duration
		switch {
		case res.Code == http.StatusServiceUnavailable:
			// Retry-After: 0 would make the user spin on instant 503s.
			wait = max(RetryAfter(hdr, time.Now(), a.fallback, a.maxWait), minWait)
		case res.Error != "":
			// A broken backend, a target without the route (404) or a
			// connection cut mid-body fails fast; waiting keeps the user
			// from turning into a busy loop that starves the machine.
			wait = a.errWait
		}
		if wait <= 0 {
			continue
		}
		timer.Reset(wait)
		select {
		case <-a.ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
	}
}

// hit sends one request and returns its Result, and the response headers
// (nil on a transport error) for Retry-After.
func (a *Attack) hit() (*vegeta.Result, http.Header) {
	res := &vegeta.Result{Attack: a.target.Attack, Method: a.target.Method, URL: a.target.URL}
	payload := a.target.Body
	if a.target.BodyFor != nil {
		payload = a.target.BodyFor(a.bodies.Add(1) - 1)
	}
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(a.ctx, a.target.Method, a.target.URL, body)
	if err != nil {
		a.stamp(res)
		res.Error = err.Error()
		return res, nil
	}
	for k, vs := range a.target.Header {
		req.Header[k] = vs
	}
	res.BytesOut = uint64(len(payload))

	a.stamp(res)
	resp, err := a.client.Do(req)
	if err != nil {
		res.Latency = time.Since(res.Timestamp)
		res.Error = err.Error()
		return res, nil
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	res.Latency = time.Since(res.Timestamp)
	res.BytesIn = uint64(n)
	res.Code = uint16(resp.StatusCode)
	switch {
	case err != nil:
		res.Error = fmt.Sprintf("reading body: %v", err)
	case res.Code < 200 || res.Code >= 400:
		res.Error = resp.Status // as vegeta does, so `vegeta report` agrees
	}
	return res, resp.Header
}

func (a *Attack) stamp(res *vegeta.Result) {
	a.seqMu.Lock()
	res.Timestamp = time.Now()
	res.Seq = a.seq
	a.seq++
	a.seqMu.Unlock()
}

// RetryAfter returns how long to wait after a 503 with headers h: the
// Retry-After value (delay-seconds or an HTTP date, RFC 9110 §10.2.3),
// capped at max, or fallback when it is absent or unusable.
func RetryAfter(h http.Header, now time.Time, fallback, max time.Duration) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return fallback
	}
	var d time.Duration
	if secs, err := strconv.Atoi(v); err == nil {
		if secs < 0 {
			return fallback
		}
		d = time.Duration(secs) * time.Second
	} else if at, err := http.ParseTime(v); err == nil {
		d = at.Sub(now)
		if d < 0 {
			d = 0
		}
	} else {
		return fallback
	}
	if max > 0 && d > max {
		d = max
	}
	return d
}
