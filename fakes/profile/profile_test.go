package profile

import (
	"context"
	"errors"
	"flag"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestSyncReturnsTheProfile(t *testing.T) {
	s := New(WithLatency(time.Millisecond))
	p, err := s.GetUserProfile()
	if err != nil {
		t.Fatalf("GetUserProfile: %v", err)
	}
	if p != (Profile{FirstName: "Alton", LastName: "Hudgens"}) {
		t.Fatalf("profile = %+v", p)
	}
}

func TestAsyncCompletes(t *testing.T) {
	s := New(WithLatency(time.Millisecond))
	f := s.GetUserProfileAsync(context.Background())
	p, err := f.Wait(context.Background())
	if err != nil || p.FirstName != "Alton" || p.LastName != "Hudgens" {
		t.Fatalf("Wait = %+v, %v", p, err)
	}
	select {
	case <-f.Done():
	default:
		t.Fatal("Done not closed after Wait returned a result")
	}
}

// Outstanding async calls must not each park a goroutine: that is the difference between
// the async path and "wrapped" fake async. Ten thousand pending futures must leave the
// goroutine count essentially unchanged.
func TestAsyncParksNoGoroutinePerCall(t *testing.T) {
	const n = 10000
	s := New(WithLatency(time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	before := runtime.NumGoroutine()
	futures := make([]*Future, n)
	for i := range futures {
		futures[i] = s.GetUserProfileAsync(ctx)
	}
	during := runtime.NumGoroutine()
	if during-before > 10 {
		t.Fatalf("%d pending futures added %d goroutines", n, during-before)
	}
	for _, f := range futures {
		select {
		case <-f.Done():
			t.Fatal("future completed long before its latency")
		default:
		}
	}
	cancel()
	for _, f := range futures {
		<-f.Done()
		if _, err := f.Wait(context.Background()); !errors.Is(err, context.Canceled) {
			t.Fatalf("after cancel, Wait err = %v, want context.Canceled", err)
		}
	}
}

func TestAsyncAlreadyCanceledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New(WithLatency(time.Hour)).GetUserProfileAsync(ctx).Wait(context.Background())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestWaitReturnsWhenItsContextEnds(t *testing.T) {
	f := New(WithLatency(time.Hour)).GetUserProfileAsync(t.Context())
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if _, err := f.Wait(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Wait err = %v, want DeadlineExceeded", err)
	}
	select {
	case <-f.Done():
		t.Fatal("Wait's context must not cancel the call itself")
	default:
	}
}

func TestErrorRate(t *testing.T) {
	for _, tc := range []struct {
		rate     float64
		min, max int
	}{
		{rate: 0, min: 0, max: 0},
		{rate: 1, min: 1000, max: 1000},
		{rate: 0.3, min: 240, max: 360}, // ±6σ around 300 for n=1000
	} {
		s := New(WithLatency(0), WithErrorRate(tc.rate), WithSeed(42))
		failed := 0
		for range 1000 {
			_, err := s.GetUserProfile()
			if err != nil {
				if !errors.Is(err, ErrInjected) {
					t.Fatalf("unexpected error %v", err)
				}
				failed++
			}
		}
		if failed < tc.min || failed > tc.max {
			t.Errorf("rate %v: %d of 1000 failed, want %d..%d", tc.rate, failed, tc.min, tc.max)
		}
	}
}

func TestAsyncInjectsErrors(t *testing.T) {
	s := New(WithLatency(0), WithErrorRate(1))
	if _, err := s.GetUserProfileAsync(t.Context()).Wait(t.Context()); !errors.Is(err, ErrInjected) {
		t.Fatalf("err = %v, want ErrInjected", err)
	}
}

func TestSeedMakesJitterReproducible(t *testing.T) {
	draws := func(seed int64) []time.Duration {
		s := New(WithLatency(100*time.Millisecond), WithJitter(50*time.Millisecond), WithSeed(seed))
		out := make([]time.Duration, 50)
		for i := range out {
			out[i], _ = s.draw()
		}
		return out
	}
	a, b, c := draws(7), draws(7), draws(8)
	same, differs := true, false
	for i := range a {
		if a[i] != b[i] {
			same = false
		}
		if a[i] != c[i] {
			differs = true
		}
		if a[i] < 50*time.Millisecond || a[i] > 150*time.Millisecond {
			t.Fatalf("draw %v outside latency ± jitter", a[i])
		}
	}
	if !same {
		t.Error("same seed gave different delays")
	}
	if !differs {
		t.Error("different seeds gave identical delays")
	}
}

func TestRegisterFlags(t *testing.T) {
	c := DefaultConfig()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	c.RegisterFlags(fs, "profile-")
	if err := fs.Parse([]string{"-profile-latency=5ms", "-profile-jitter=1ms", "-profile-error-rate=1", "-profile-seed=3"}); err != nil {
		t.Fatal(err)
	}
	want := Config{Latency: 5 * time.Millisecond, Jitter: time.Millisecond, ErrorRate: 1, Seed: 3}
	if c != want {
		t.Fatalf("config = %+v, want %+v", c, want)
	}
	s := New(c.Options()...)
	if s.latency != want.Latency || s.jitter != want.Jitter || s.errorRate != 1 {
		t.Fatalf("options not applied: %+v", s)
	}
}

func TestDefaultLatencyIsTwoSeconds(t *testing.T) {
	if got := New().latency; got != 2*time.Second {
		t.Fatalf("default latency = %v", got)
	}
}

func TestHTTPRoundTrip(t *testing.T) {
	srv := httptest.NewServer(New(WithLatency(time.Millisecond)).Handler())
	defer srv.Close()
	c := NewClient(srv.URL+"/", srv.Client())
	p, err := c.Get(t.Context())
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if p != theProfile {
		t.Fatalf("profile = %+v", p)
	}
}

func TestHTTPInjectedFault(t *testing.T) {
	srv := httptest.NewServer(New(WithLatency(0), WithErrorRate(1)).Handler())
	defer srv.Close()
	_, err := NewClient(srv.URL, srv.Client()).Get(t.Context())
	if !errors.Is(err, ErrInjected) {
		t.Fatalf("err = %v, want ErrInjected", err)
	}
}

func TestHTTPClientContextCancel(t *testing.T) {
	srv := httptest.NewServer(New(WithLatency(time.Hour)).Handler())
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	_, err := NewClient(srv.URL, srv.Client()).Get(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
}

func TestHTTPRejectsOtherMethods(t *testing.T) {
	srv := httptest.NewServer(New(WithLatency(0)).Handler())
	defer srv.Close()
	resp, err := srv.Client().Post(srv.URL+Path, "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST status = %d, want 405", resp.StatusCode)
	}
}
