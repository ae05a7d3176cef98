package profile

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// ErrInjected is returned (possibly wrapped) for faults injected by the error-rate knob.
var ErrInjected = errors.New("profile: injected fault")

// DefaultLatency is the delay of the original sample's fake service.
const DefaultLatency = 2 * time.Second

// Profile is the only answer the service ever gives.
type Profile struct {
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
}

// theProfile is what the original sample returns.
var theProfile = Profile{FirstName: "Alton", LastName: "Hudgens"}

// Service is a fake user-profile service. It is safe for concurrent use.
type Service struct {
	latency   time.Duration
	jitter    time.Duration
	errorRate float64

	mu  sync.Mutex // guards rnd: rand.Rand is not safe for concurrent use
	rnd *rand.Rand
}

// Option configures a Service.
type Option func(*Service)

// WithLatency sets the base delay of every call (default 2s). Negative values count as 0.
func WithLatency(d time.Duration) Option {
	return func(s *Service) { s.latency = max(d, 0) }
}

// WithJitter spreads each call's delay uniformly over latency ± jitter (never below 0).
func WithJitter(d time.Duration) Option {
	return func(s *Service) { s.jitter = max(d, 0) }
}

// WithErrorRate makes a fraction p (clamped to [0,1]) of calls fail with ErrInjected after
// their delay, as a real dependency's errors would.
func WithErrorRate(p float64) Option {
	return func(s *Service) { s.errorRate = min(max(p, 0), 1) }
}

// WithSeed makes the jitter and error sequence reproducible. Without it each Service is
// seeded randomly.
func WithSeed(seed int64) Option {
	return func(s *Service) { s.rnd = rand.New(rand.NewPCG(uint64(seed), 0x5eed)) }
}

// New returns a Service with the original sample's 2s latency unless options say otherwise.
func New(opts ...Option) *Service {
	s := &Service{latency: DefaultLatency}
	for _, o := range opts {
		o(s)
	}
	if s.rnd == nil {
		s.rnd = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	return s
}

// draw decides one call's delay and whether it fails. Both are drawn together, under one
// lock, so a seeded Service gives the same sequence whatever the call shape.
func (s *Service) draw() (time.Duration, error) {
	if s.jitter == 0 && s.errorRate == 0 {
		return s.latency, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.latency
	if s.jitter > 0 {
		d += time.Duration(s.rnd.Int64N(int64(2*s.jitter)+1)) - s.jitter
		d = max(d, 0)
	}
	var err error
	if s.errorRate > 0 && s.rnd.Float64() < s.errorRate {
		err = ErrInjected
	}
	return d, err
}

// GetUserProfile blocks the calling goroutine for the configured latency, with no way to
// cancel it. That is the point: it is the synchronous antipattern the demo measures.
func (s *Service) GetUserProfile() (Profile, error) {
	d, err := s.draw()
	time.Sleep(d) // no ignore: the blocking must propagate to the handlers that call this
	if err != nil {
		return Profile{}, err
	}
	return theProfile, nil
}

// GetUserProfileAsync starts a call and returns at once. The result arrives on the Future
// when a runtime timer fires; no goroutine waits for it. If ctx ends first, the Future
// completes with ctx's error and the timer is stopped.
func (s *Service) GetUserProfileAsync(ctx context.Context) *Future {
	f := &Future{done: make(chan struct{})}
	if err := ctx.Err(); err != nil {
		f.complete(Profile{}, err)
		return f
	}
	d, err := s.draw()
	// context.AfterFunc registers a callback on the context itself (no goroutine for the
	// standard context types), so cancellation also costs nothing while the call is pending.
	// The timer is published through an atomic because the context may end before it exists.
	var timer atomic.Pointer[time.Timer]
	stopCtx := context.AfterFunc(ctx, func() {
		if t := timer.Load(); t != nil {
			t.Stop()
		}
		f.complete(Profile{}, ctx.Err())
	})
	timer.Store(time.AfterFunc(d, func() {
		stopCtx()
		if err != nil {
			f.complete(Profile{}, err)
			return
		}
		f.complete(theProfile, nil)
	}))
	return f
}

// Future is the pending result of GetUserProfileAsync.
type Future struct {
	once    sync.Once
	done    chan struct{}
	profile Profile
	err     error
}

// complete records the first outcome only; the timer and the cancellation may race.
func (f *Future) complete(p Profile, err error) {
	f.once.Do(func() {
		f.profile, f.err = p, err
		close(f.done)
	})
}

// Done is closed when the result is available.
func (f *Future) Done() <-chan struct{} { return f.done }

// Wait returns the result, or ctx.Err() if ctx ends first. Waiting does not cancel the
// call; cancel the context given to GetUserProfileAsync for that.
func (f *Future) Wait(ctx context.Context) (Profile, error) {
	select {
	case <-f.done:
		return f.profile, f.err
	case <-ctx.Done():
		return Profile{}, ctx.Err()
	}
}
