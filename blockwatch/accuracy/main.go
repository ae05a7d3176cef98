// Command accuracy measures how close blockwatch's shares come to the
// truth. It runs a synthetic service whose handlers are in package main,
// with three routes whose waits it times itself:
//
//   - /net holds a worker and spends about 80% of its time in an HTTP call
//     to a downstream that answers after -net (the rest sleeping, so that
//     the split does not depend on how busy the CPU is);
//   - /lock spends about 20% of its time waiting for a mutex that a
//     background goroutine holds in turns (the rest sleeping);
//   - /cpu only computes.
//
// A closed loop of -users users (a third per route) drives it for -warmup
// and then -duration, while -hog processes spin beside it, and a
// blockwatch.Watcher with the default rate and budget samples the
// measured stretch. The timed truth is each wait's wall time over each
// request's, clipped to the stretch the watcher covered. It prints a
// markdown table of the design, the truth, the reported share and the
// difference, and the conditions of the run.
//
//	go run ./blockwatch/accuracy -users 1000 -duration 30s -hog 2
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/syncio/syncio/blockwatch"
)

// hogEnv marks a child process started to spin (the CPU hog).
const hogEnv = "BLOCKWATCH_ACCURACY_HOG"

func main() {
	if d := os.Getenv(hogEnv); d != "" {
		hog(d)
		return
	}
	users := flag.Int("users", 1000, "closed-loop users, a third per route")
	duration := flag.Duration("duration", 30*time.Second, "measured stretch, sampled by the watcher")
	warmup := flag.Duration("warmup", 5*time.Second, "load before the watcher starts")
	hogs := flag.Int("hog", 2, "CPU hog processes spinning beside the service (0: none)")
	netDelay := flag.Duration("net", 80*time.Millisecond, "the downstream's answer time on /net")
	rate := flag.Int("rate", blockwatch.DefaultRate, "watcher rate in Hz")
	budget := flag.Float64("budget", blockwatch.DefaultBudget, "watcher CPU budget, share of a core")
	flag.Parse()
	if *users < 3 || *duration <= 0 || *warmup < 0 || *hogs < 0 || *netDelay <= 0 {
		fmt.Fprintln(os.Stderr, "accuracy: -users must be at least 3, -duration and -net positive, -warmup and -hog not negative")
		os.Exit(2)
	}
	if err := run(*users, *duration, *warmup, *hogs, *netDelay, *rate, *budget); err != nil {
		log.Fatal(err)
	}
}

// timing is one route's timed truth, clipped to the watched stretch.
type timing struct {
	mu            sync.Mutex
	from, to      time.Time
	total, waited time.Duration // request time, and the part in the route's wait
	requests      int
}

// add records a request that ran from start to end and waited from
// waitStart to waitEnd, the parts inside [from, to] only.
func (t *timing) add(start, waitStart, waitEnd, end time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.from.IsZero() {
		return
	}
	clip := func(a, b time.Time) time.Duration {
		a, b = later(a, t.from), earlier(b, t.to)
		return max(b.Sub(a), 0)
	}
	t.total += clip(start, end)
	t.waited += clip(waitStart, waitEnd)
	if !end.Before(t.from) && !start.After(t.to) {
		t.requests++
	}
}

func (t *timing) window(from, to time.Time) {
	t.mu.Lock()
	t.from, t.to = from, to
	t.mu.Unlock()
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// service is the synthetic service: handlers in package main, as most
// small services have them.
type service struct {
	downstream string
	client     *http.Client
	workers    chan struct{}
	mu         sync.Mutex
	net, lock  timing
	cpu        timing
	sleep      time.Duration
}

// netRoute holds a worker across the downstream call: the antipattern.
func (s *service) netRoute(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	//syncio:ignore SIO005 -- the pool is sized to the users, so this send never waits
	s.workers <- struct{}{}
	defer func() { <-s.workers }()
	ctx, release := blockwatch.Hold(r.Context(), "pool")
	defer release()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.downstream, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	callStart := time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	callEnd := time.Now()
	//syncio:ignore SIO005 -- a synthetic wait of known length, a quarter of the call: 20% of the route
	time.Sleep(s.sleep / 4)
	end := time.Now()
	s.net.add(start, callStart, callEnd, end)
	w.WriteHeader(http.StatusNoContent)
}

// lockRoute waits for a mutex that the holder goroutine keeps most of the
// time, then sleeps.
func (s *service) lockRoute(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	s.mu.Lock()
	got := time.Now()
	s.mu.Unlock()
	//syncio:ignore SIO005 -- a synthetic wait of known length, the 80% of /lock that is not the mutex
	time.Sleep(s.sleep)
	end := time.Now()
	s.lock.add(start, start, got, end)
	w.WriteHeader(http.StatusNoContent)
}

// cpuRoute only computes.
func (s *service) cpuRoute(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	x := 0
	for i := range 2_000_000 {
		x ^= i * i
	}
	end := time.Now()
	s.cpu.add(start, start, start, end)
	w.Header().Set("X-Sum", fmt.Sprint(x))
	w.WriteHeader(http.StatusNoContent)
}

// holder keeps the mutex held for hold at a time, letting the waiters
// through in between, until ctx ends: a request arriving at random waits
// hold/2 on average.
func (s *service) holder(ctx context.Context, hold time.Duration) {
	for ctx.Err() == nil {
		s.mu.Lock()
		time.Sleep(hold)
		s.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
}

func listen(h http.Handler) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("listen: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}

func run(users int, duration, warmup time.Duration, hogs int, netDelay time.Duration, rate int, budget float64) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	loadBefore := loadavg()

	down, stopDown, err := listen(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		//syncio:ignore SIO005 -- the downstream's answer time, which the watcher must see as network on /net
		time.Sleep(netDelay)
		_, _ = io.WriteString(w, "ok")
	}))
	if err != nil {
		return err
	}
	defer stopDown()
	s := &service{
		downstream: down,
		client:     &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: users}},
		workers:    make(chan struct{}, users),
		sleep:      netDelay,
	}
	// Holding 2/5 of a sleep: waiters arriving at random wait a fifth of
	// a sleep on average, so the wait is about 20% of /lock.
	go s.holder(ctx, 2*netDelay/5)
	mux := http.NewServeMux()
	mux.Handle("GET /net", blockwatch.Label("/net", http.HandlerFunc(s.netRoute)))
	mux.Handle("GET /lock", blockwatch.Label("/lock", http.HandlerFunc(s.lockRoute)))
	mux.Handle("GET /cpu", blockwatch.Label("/cpu", http.HandlerFunc(s.cpuRoute)))
	svc, stopSvc, err := listen(mux)
	if err != nil {
		return err
	}
	defer stopSvc()

	var hogProcs []*exec.Cmd
	for range hogs {
		self, err := os.Executable()
		if err != nil {
			return fmt.Errorf("hog: %w", err)
		}
		c := exec.CommandContext(ctx, self)
		c.Env = append(os.Environ(), hogEnv+"="+(warmup+duration+5*time.Second).String(), "GOMAXPROCS=1")
		if err := c.Start(); err != nil {
			return fmt.Errorf("hog: %w", err)
		}
		hogProcs = append(hogProcs, c)
	}

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: users}, Timeout: time.Minute}
	loadCtx, stopLoad := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var errMu sync.Mutex
	errs := map[string]int{}
	routes := []string{"/net", "/lock", "/cpu"}
	for i := range users {
		url := svc + routes[i%3]
		wg.Go(func() {
			for loadCtx.Err() == nil {
				req, _ := http.NewRequestWithContext(loadCtx, http.MethodGet, url, nil)
				resp, err := client.Do(req)
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
					if resp.StatusCode != http.StatusNoContent {
						err = errors.New(resp.Status)
					}
				}
				if err != nil && loadCtx.Err() == nil {
					errMu.Lock()
					errs[err.Error()]++
					errMu.Unlock()
					time.Sleep(10 * time.Millisecond)
				}
			}
		})
	}

	time.Sleep(warmup)
	w := blockwatch.New(blockwatch.WithRate(rate), blockwatch.WithBudget(budget))
	watchCtx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	from := time.Now()
	to := from.Add(duration)
	for _, t := range []*timing{&s.net, &s.lock, &s.cpu} {
		t.window(from, to)
	}
	go func() { defer close(watched); w.Run(watchCtx) }()
	time.Sleep(time.Until(to))
	stopWatch()
	<-watched
	// Let the requests in flight at the end finish, so that their clipped
	// time is counted, then stop the load.
	time.Sleep(2*netDelay + time.Second)
	stopLoad()
	wg.Wait()
	cancel()
	for _, c := range hogProcs {
		_ = c.Wait()
	}
	loadAfter := loadavg()

	r := w.Report()
	route := func(name string) blockwatch.Route {
		for _, x := range r.Routes {
			if x.Route == name {
				return x
			}
		}
		return blockwatch.Route{}
	}
	// A route's share of one kind of wait, with its margin (the
	// watcher's own 95% interval).
	kindShare := func(name string, kind blockwatch.Kind) (share float64, margin *float64, ok bool) {
		rt := route(name)
		if rt.RequestS == 0 {
			return 0, nil, false
		}
		for _, k := range rt.Kinds {
			if k.Kind == kind {
				return k.Share, k.Margin, true
			}
		}
		// Never seen in that kind: 0, and as sure as the route's samples.
		return 0, rt.ShareMargin, true
	}
	truth := func(t *timing) float64 {
		if t.total == 0 {
			return math.NaN()
		}
		return float64(t.waited) / float64(t.total)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "| route | what it waits on | design | timed truth | reported (95%% margin) | difference | truth inside the margin | requests | samples |\n|---|---|--:|--:|--:|--:|:-:|--:|--:|\n")
	row := func(name, what string, design float64, t *timing, rep float64, margin *float64, ok bool) {
		reported, diff, inside := "–", "–", "–"
		if ok {
			reported = fmt.Sprintf("%.1f%%", 100*rep)
			diff = fmt.Sprintf("%+.1f points", 100*(rep-truth(t)))
			if margin != nil {
				reported += fmt.Sprintf(" ± %.1f", 100**margin)
				inside = "no"
				// The margin is printed to a tenth of a point; compare at that.
				if math.Round(1000*math.Abs(rep-truth(t))) <= math.Round(1000**margin) {
					inside = "yes"
				}
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %.0f%% | %.1f%% | %s | %s | %s | %d | %d |\n", name, what, 100*design, 100*truth(t), reported, diff, inside, t.requests, route(name).Samples)
	}
	netShare, netMargin, okNet := kindShare("/net", blockwatch.Network)
	lockShare, lockMargin, okLock := kindShare("/lock", blockwatch.Lock)
	cpu := route("/cpu")
	row("/net", "network, holding a worker", 0.8, &s.net, netShare, netMargin, okNet)
	row("/lock", "mutex", 0.2, &s.lock, lockShare, lockMargin, okLock)
	row("/cpu", "nothing (blocked at all)", 0, &s.cpu, cpu.Share, cpu.ShareMargin, cpu.RequestS > 0)
	fmt.Fprintf(&b, "\n%d users, %d CPU hog processes, %s warm-up, %s watched; %d samples (%.1f Hz achieved of %d asked, budget %.3g of a core, %d samples spaced by it), sampling %.2f s of CPU (%s) and %.2f s of wall time; %d CPUs, GOMAXPROCS %d, %s; load average %s before, %s after\n",
		users, hogs, warmup, duration, r.Samples, float64(r.Samples)/r.WatchedS, rate, budget, r.BudgetLimited,
		r.SamplingCPUS, r.BudgetClock, r.SamplingS, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), loadBefore, loadAfter)
	if slot := route("/net").SlotShare; slot != nil {
		fmt.Fprintf(&b, "reported: /net blocked %.1f%% of its slot time (time holding a worker: the call, then a sleep); /net is %.1f%% of all request time, /lock %.1f%%, /cpu %.1f%%\n",
			100**slot, 100*route("/net").RequestS/r.RequestS, 100*route("/lock").RequestS/r.RequestS, 100*route("/cpu").RequestS/r.RequestS)
	}
	for _, name := range routes {
		fmt.Fprintf(&b, "blocked on %s: %s\n", name, siteList(r, name, route(name).RequestS))
	}
	for _, warning := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", warning)
	}
	for e, n := range errs {
		fmt.Fprintf(&b, "load errors: %d × %s\n", n, e)
	}
	_, err = os.Stdout.WriteString(b.String())
	return err
}

// siteList names the sites behind a route's reported share, most first,
// each with its share of the route's request time: a figure off the truth
// then says which frames it came from.
func siteList(r blockwatch.Report, route string, requestS float64) string {
	type part struct {
		name string
		secs float64
	}
	var parts []part
	for _, site := range r.Sites {
		if secs := site.Routes[route]; secs > 0 {
			parts = append(parts, part{fmt.Sprintf("%s at %s (%s)", site.Site, site.Blocking, site.Kind), secs})
		}
	}
	if len(parts) == 0 || requestS == 0 {
		return "nothing"
	}
	slices.SortFunc(parts, func(a, b part) int { return cmp.Compare(b.secs, a.secs) })
	var out []string
	for i, p := range parts {
		if i == 4 {
			out = append(out, fmt.Sprintf("%d more", len(parts)-i))
			break
		}
		out = append(out, fmt.Sprintf("%s %.1f%%", p.name, 100*p.secs/requestS))
	}
	return strings.Join(out, "; ")
}

// hog spins on one core for d, then exits.
func hog(d string) {
	dur, err := time.ParseDuration(d)
	if err != nil {
		os.Exit(2)
	}
	x := 0
	for end := time.Now().Add(dur); time.Now().Before(end); {
		for i := range 1_000_000 {
			x ^= i
		}
	}
	if x == 42 {
		fmt.Println() // keeps the loop from being optimised away
	}
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
