package blockwatch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/prometheus/client_golang/prometheus"
)

const module = "github.com/syncio/syncio"

// The functions below park in a known way; each test looks for its site by
// name, so they must not be inlined into their callers.

//go:noinline
func sleeper(d time.Duration) { time.Sleep(d) }

//go:noinline
func receiver(ch chan struct{}) { <-ch }

//go:noinline
func locker(mu *sync.Mutex) {
	mu.Lock()
	mu.Unlock() //nolint:staticcheck // SA2001: waiting for the lock is the point, not what it guards
}

//go:noinline
func reader(c net.Conn) { _, _ = c.Read(make([]byte, 1)) }

// find returns the sites of r whose function is fn.
func find(r Report, fn string) []Site {
	var out []Site
	for _, s := range r.Sites {
		if s.Func == module+"/blockwatch."+fn {
			out = append(out, s)
		}
	}
	return out
}

// eventually samples w until cond holds for a fresh watcher's report, so
// that goroutines started by the test have parked.
func eventually(t *testing.T, cond func(Report) bool) *Watcher {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		w := New(WithModule(module))
		if err := w.sample(100 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if r := w.Report(); cond(r) {
			return w
		}
		if time.Now().After(deadline) {
			t.Fatalf("condition not met; last report: %+v", w.Report())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var run int

func TestSamplerAttributesEachWaitToItsSite(t *testing.T) {
	stop := make(chan struct{})
	var mu sync.Mutex
	mu.Lock()
	server, client := net.Pipe()
	tcp := listenPair(t)
	var wg sync.WaitGroup
	start := func(route string, hold bool, f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Do(context.Background(), route, func(ctx context.Context) {
				if hold {
					_, release := Hold(ctx, "pool")
					defer release()
				}
				f()
			})
		}()
	}
	// The sleeper outlives the test (-count=N runs it again in the same
	// process), so routes are unique per run and checked by route.
	run++
	route := func(r string) string { return fmt.Sprintf("%s#%d", r, run) }
	start(route("/sleep"), true, func() { sleeper(time.Hour) })
	start(route("/chan"), false, func() { receiver(stop) })
	start(route("/lock"), true, func() { locker(&mu) })
	start(route("/net"), false, func() { reader(tcp) })
	// Not a request: blocked, but unlabelled, so never counted.
	go receiver(stop)

	w := eventually(t, func(r Report) bool {
		return len(find(r, "sleeper")) == 1 && len(find(r, "receiver")) == 1 &&
			len(find(r, "locker")) == 1 && len(find(r, "reader")) == 1 &&
			find(r, "reader")[0].Kind == Network // not caught in the read syscall before it parks
	})
	for range 2 {
		if err := w.sample(100 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	r := w.Report()
	cases := []struct {
		fn, route string
		kind      Kind
		blocking  string
		worker    bool
	}{
		{"sleeper", "/sleep", Sleep, "time.Sleep", true},
		{"receiver", "/chan", Channel, "runtime.chanrecv", false},
		{"locker", "/lock", Lock, "", true},
		{"reader", "/net", Network, "internal/poll.runtime_pollWait", false},
	}
	for _, c := range cases {
		got := find(r, c.fn)
		if len(got) != 1 {
			t.Errorf("%s: %d sites, want 1 (the unlabelled goroutine must not count): %+v", c.fn, len(got), got)
			continue
		}
		s := got[0]
		if s.Kind != c.kind || s.HoldingWorker != c.worker || (c.blocking != "" && s.Blocking != c.blocking) {
			t.Errorf("%s: kind %s, blocking %s, holding_worker %v; want %s, %s, %v", c.fn, s.Kind, s.Blocking, s.HoldingWorker, c.kind, c.blocking, c.worker)
		}
		if s.Site != "blockwatch."+c.fn {
			t.Errorf("%s: site %q, want %q", c.fn, s.Site, "blockwatch."+c.fn)
		}
		// Three samples of 100 ms each, one goroutine.
		if got := s.Routes[route(c.route)]; got < 0.299 || got > 0.301 {
			t.Errorf("%s: blocked_s %v, routes %v; want 0.3 all on %s", c.fn, s.BlockedS, s.Routes, c.route)
		}
		if !strings.HasPrefix(s.Stack[0], "runtime.gopark ") {
			t.Errorf("%s: stack starts %q, want the park", c.fn, s.Stack[0])
		}
	}
	if r.BlockedHoldingWorkerS < 0.599 || r.BlockedHoldingWorkerS > r.BlockedS {
		t.Errorf("blocked holding a worker %v of %v, want at least 0.6 (sleeper and locker)", r.BlockedHoldingWorkerS, r.BlockedS)
	}
	close(stop)
	mu.Unlock()
	_ = server.Close()
	_ = client.Close()
}

// listenPair returns the server end of a loopback TCP connection whose
// client never writes, so reading from it parks in the netpoller.
func listenPair(t *testing.T) net.Conn {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(); _ = s.Close() })
	return s
}

func TestDropAndRetakeRelabel(t *testing.T) {
	phase := make(chan struct{})
	next := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		Do(context.Background(), "/await", func(ctx context.Context) {
			ctx, release := Hold(ctx, "pool")
			defer release()
			retake := Drop(ctx, "pool")
			receiver(phase) // waits holding nothing
			retake()
			receiver(next) // waits holding the worker again
		})
		receiver(next) // after Do: not a request any more
	}()
	check := func(wantHolding string) {
		t.Helper()
		eventually(t, func(r Report) bool {
			s := find(r, "receiver")
			return len(s) == 1 && s[0].Holding == wantHolding && s[0].HoldingWorker == (wantHolding != "")
		})
	}
	check("")
	phase <- struct{}{}
	check("pool")
	next <- struct{}{}
	eventually(t, func(r Report) bool { return len(find(r, "receiver")) == 0 })
	next <- struct{}{}
	<-done
}

func TestHoldOutsideRequestDoesNothing(t *testing.T) {
	ctx, release := Hold(context.Background(), "pool")
	defer release()
	if ctx != context.Background() {
		t.Error("Hold outside a labelled request returned a new context")
	}
}

func TestLabelMiddlewareAndServe(t *testing.T) {
	unblock := make(chan struct{})
	h := Label("GET /slow", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		receiver(unblock)
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	errs := make(chan error, 3)
	for range 3 {
		go func() {
			resp, err := http.Get(srv.URL)
			if err == nil {
				_ = resp.Body.Close()
			}
			errs <- err
		}()
	}
	w := eventually(t, func(r Report) bool {
		s := find(r, "receiver")
		return len(s) == 1 && s[0].BlockedS > 0.299 // three requests × 100 ms
	})
	r := w.Report()
	s := find(r, "receiver")[0]
	if s.Routes["GET /slow"] != s.BlockedS || s.HoldingWorker {
		t.Errorf("routes %v holding_worker %v, want all on GET /slow, holding nothing", s.Routes, s.HoldingWorker)
	}
	if !strings.Contains(strings.Join(s.Stack, "\n"), "net/http.(*conn).serve") {
		t.Errorf("stack does not reach the server goroutine:\n%s", strings.Join(s.Stack, "\n"))
	}

	rec := httptest.NewRecorder()
	w.ServeHTTP(rec, httptest.NewRequest("GET", "/debug/syncio/blocking", nil))
	var got Report
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != 200 {
		t.Fatalf("JSON: %d %v", rec.Code, err)
	}
	if len(find(got, "receiver")) != 1 {
		t.Errorf("served JSON lacks the receiver site: %s", rec.Body)
	}

	rec = httptest.NewRecorder()
	w.ServeHTTP(rec, httptest.NewRequest("GET", "/debug/syncio/blocking?format=pprof", nil))
	p, err := profile.Parse(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatalf("pprof form does not parse: %v", err)
	}
	if err := p.CheckValid(); err != nil {
		t.Fatalf("pprof form invalid: %v", err)
	}
	var total int64
	for _, smp := range p.Sample {
		if smp.Location[0].Line[0].Function.Name == "runtime.gopark" && smp.Label["route"][0] == "GET /slow" {
			total += smp.Value[0]
		}
	}
	if want := int64(s.BlockedS * 1e9); total != want {
		t.Errorf("pprof blocked ns on GET /slow = %d, want %d", total, want)
	}

	rec = httptest.NewRecorder()
	w.ServeHTTP(rec, httptest.NewRequest("GET", "/debug/syncio/blocking?format=xml", nil))
	body, _ := io.ReadAll(rec.Body)
	if rec.Code != 400 || !strings.Contains(string(body), `"code":"bad_format"`) || !strings.Contains(string(body), `format \"xml\"`) {
		t.Errorf("bad format: %d %s", rec.Code, body)
	}

	close(unblock)
	for range 3 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestClassify(t *testing.T) {
	fs := func(names ...string) []Frame {
		var out []Frame
		for _, n := range names {
			out = append(out, Frame{Func: n})
		}
		return out
	}
	cases := []struct {
		stack   []Frame
		kind    Kind
		at      int
		blocked bool
	}{
		{fs("runtime.gopark", "runtime.selectgo", "net/http.(*persistConn).roundTrip", "net/http.(*Client).Do", "app.h"), Network, 2, true},
		{fs("runtime.gopark", "runtime.selectgo", "app.h"), Channel, 1, true},
		// HTTP/2 bodies: the server's request body, the client's response
		// body, both read from a pipe the connection fills.
		{fs("runtime.gopark", "sync.runtime_notifyListWait", "sync.(*Cond).Wait", "net/http.(*http2pipe).Read", "net/http.(*http2requestBody).Read", "io.ReadAll", "app.h"), Network, 3, true},
		{fs("runtime.gopark", "sync.runtime_notifyListWait", "sync.(*Cond).Wait", "net/http.(*http2pipe).Read", "net/http.http2transportResponseBody.Read", "io.ReadAll", "app.h"), Network, 3, true},
		{fs("runtime.gopark", "runtime.selectgo", "net/http.(*http2ClientConn).roundTrip", "app.h"), Network, 2, true},
		// Seen in CI: after each read the server's HTTP/2 body hands the
		// window update to the serve loop in a select; the handler still
		// waits on the connection.
		{fs("runtime.gopark", "runtime.selectgo", "net/http.(*http2serverConn).noteBodyReadFromHandler", "net/http.(*http2requestBody).Read", "io.ReadAll", "app.h"), Network, 3, true},
		// A response write on HTTP/2 waits for the serve loop to take the
		// frame, and for flow control.
		{fs("runtime.gopark", "runtime.selectgo", "net/http.(*http2serverConn).writeDataFromHandler", "net/http.(*http2chunkWriter).Write", "app.h"), Network, 2, true},
		{fs("runtime.gopark", "runtime.selectgo", "net/http.(*http2serverConn).writeFrameFromHandler", "net/http.(*http2serverConn).writeHeaders", "app.h"), Network, 2, true},
		{fs("syscall.Syscall6", "os.(*File).Read", "app.h"), Syscall, 0, true},
		{fs("runtime.gopark", "runtime.goparkunlock", "runtime.semacquire1", "sync.runtime_SemacquireWaitGroup", "sync.(*WaitGroup).Wait", "app.h"), Sync, 3, true},
		{fs("runtime.gopark", "runtime.gcBgMarkWorker"), Other, 0, true},
		{fs("app.compute", "app.h"), "", 0, false}, // running
		{fs("runtime.gopark", "runtime.goparkunlock", "runtime.gcParkAssist", "runtime.gcAssistAlloc", "runtime.mallocgc", "app.h"), "", 0, false},
		// Recorded from the accuracy run's compute-only route (GOGC=5 to
		// make it frequent): a response header's allocation crossed the GC
		// trigger while another goroutine was starting the collection, so
		// it parked on the runtime's start semaphore. Paying for GC, not a
		// wait of the handler's: it read as blocked, kind other.
		{fs("runtime.gopark", "runtime.goparkunlock", "runtime.semacquire1", "runtime.semacquire", "runtime.gcStart",
			"runtime.mallocgcSmallScanNoHeader", "runtime.mallocgc", "runtime.newarray", "internal/runtime/maps.newarray",
			"internal/runtime/maps.newGroups", "internal/runtime/maps.(*Map).growToSmall", "runtime.mapassign_faststr",
			"net/http.Header.Clone", "net/http.(*response).WriteHeader", "main.(*service).cpuRoute", "net/http.HandlerFunc.ServeHTTP",
			"main.run.Label.LabelFunc.func15.1", "runtime/pprof.Do"), "", 0, false},
		// A collection started on purpose (runtime.GC) is a wait the code
		// asked for, with no allocation under it.
		{fs("runtime.gopark", "runtime.goparkunlock", "runtime.semacquire1", "runtime.semacquire", "runtime.gcStart", "runtime.GC", "app.h"), Other, 0, true},
		{nil, "", 0, false},
	}
	for _, c := range cases {
		k, at, b := classify(c.stack)
		if k != c.kind || at != c.at || b != c.blocked {
			t.Errorf("classify(%v) = %s, %d, %v; want %s, %d, %v", c.stack, k, at, b, c.kind, c.at, c.blocked)
		}
	}
}

func TestShortName(t *testing.T) {
	for in, want := range map[string]string{
		"github.com/syncio/syncio/fakes/profile.(*Service).GetUserProfile": "profile.(*Service).GetUserProfile",
		"github.com/syncio/syncio/api.(*app).asyncProfile.func1":           "api.(*app).asyncProfile.func1",
		"time.Sleep": "time.Sleep",
		"example.com/m.F[go.shape.struct { a/b.T }]": "m.F[go.shape.struct { a/b.T }]",
	} {
		if got := shortName(in); got != want {
			t.Errorf("shortName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIgnoredSitesAreCountedApart(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	go Do(context.Background(), "/q", func(context.Context) { receiver(stop) })
	eventually(t, func(r Report) bool { return len(find(r, "receiver")) == 1 })
	w := New(WithModule(module), WithIgnore(module+"/blockwatch.receiver"))
	if err := w.sample(time.Second); err != nil {
		t.Fatal(err)
	}
	r := w.Report()
	if len(find(r, "receiver")) != 0 || r.IgnoredS < 1 {
		t.Errorf("ignored site reported (%v) or not counted apart (ignored_s %v)", find(r, "receiver"), r.IgnoredS)
	}
}

// TestInheritedLabelsOutsideOwnCodeDoNotCount: an HTTP client dialling from
// a labelled request starts connection loops that inherit the request's
// labels and outlive it; they are not the request, and must not count.
func TestInheritedLabelsOutsideOwnCodeDoNotCount(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	Do(context.Background(), "/dialler", func(ctx context.Context) {
		_, release := Hold(ctx, "pool")
		defer release()
		resp, err := client.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	})
	// The idle connection's loops are parked now, labelled /dialler.
	time.Sleep(50 * time.Millisecond)
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"syncio.route":"/dialler"`) {
		t.Fatal("no goroutine kept the request's labels: the case this test guards is gone")
	}
	w := New(WithModule(module))
	if err := w.sample(time.Second); err != nil {
		t.Fatal(err)
	}
	for _, s := range w.Report().Sites {
		if _, ok := s.Routes["/dialler"]; ok {
			t.Errorf("connection loop counted as the request: %s at %s", s.Site, s.Blocking)
		}
	}
}

// TestRunKeepsToItsBudget: asked for 1000 Hz with many goroutines, Run
// slows down so that sampling takes at most its budget of the time, and
// still weights its samples by the time they stand for.
func TestRunKeepsToItsBudget(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	for range 2000 {
		go Do(context.Background(), "/many", func(context.Context) { receiver(stop) })
	}
	w := New(WithModule(module), WithRate(1000), WithBudget(0.05))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx) }()
	for deadline := time.Now().Add(30 * time.Second); w.Report().Samples < 5; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d samples in 30 s", w.Report().Samples)
		}
	}
	cancel()
	<-done
	r := w.Report()
	if runtime.GOOS == "linux" && r.BudgetClock != "thread_cpu" {
		t.Errorf("budget clock %q on Linux, want thread_cpu", r.BudgetClock)
	}
	// The first sample comes after the configured interval, before the
	// watcher knows what a sample costs: the budget holds for the rest. It
	// bounds CPU time, not wall time: on a busy machine a sample takes
	// longer without costing more.
	if rest := r.SamplingCPUS * float64(r.Samples-1) / float64(r.Samples); rest > 0.05*1.5*r.WatchedS {
		t.Errorf("sampling cost %.3fs of CPU in %.3fs (%d samples), well over the 5%% budget beyond the first sample (each wait follows the previous sample's cost, so it is not exact)", r.SamplingCPUS, r.WatchedS, r.Samples)
	}
	// Every sample saw the 2000 goroutines for the time it stood for.
	var many float64
	for _, s := range r.Sites {
		many += s.Routes["/many"]
	}
	if many < 2000*r.WatchedS*0.99 || many > 2000*r.WatchedS*1.01 {
		t.Errorf("blocked on /many %.1f goroutine-seconds over %.3fs watched, want 2000 × that", many, r.WatchedS)
	}
}

// TestConcurrentRuns: two Runs at once must not corrupt each other's
// profiles (go test -race catches a shared profile buffer); their figures
// count the time twice, as Run's doc says.
func TestConcurrentRuns(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	go Do(context.Background(), "/concurrent", func(context.Context) { receiver(stop) })
	w := New(WithModule(module), WithRate(1000), WithBudget(1))
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { w.Run(ctx) })
	}
	for deadline := time.Now().Add(10 * time.Second); w.Report().Samples < 20; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d samples in 10 s", w.Report().Samples)
		}
	}
	cancel()
	wg.Wait()
	if r := w.Report(); r.Errors != 0 {
		t.Errorf("%d failed samples", r.Errors)
	}
}

// TestThreadCPUCountsCPUNotWall: the budget's clock is the thread's CPU
// time, which a wait (as on a machine too busy to run the sampler) does not
// advance.
func TestThreadCPUCountsCPUNotWall(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the thread CPU clock is read on Linux only; elsewhere the budget counts wall time and says so")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok := threadCPU()
	if !ok {
		t.Fatal("thread CPU time unreadable on Linux")
	}
	time.Sleep(200 * time.Millisecond)
	c1, _ := threadCPU()
	if d := c1 - c0; d > 20*time.Millisecond {
		t.Errorf("a 200 ms sleep advanced the thread's CPU clock by %v: it counts wall time", d)
	}
	x := 0
	for c2 := c1; c2-c1 < 5*time.Millisecond; c2, _ = threadCPU() {
		for i := range 100000 {
			x ^= i
		}
	}
	_ = x // the loop ends only when the clock advanced: it counts CPU time
}

// TestPackageMainHandlersAreOwnCode builds a service whose handler is in
// package main (testdata/mainsvc), as most small services are, and runs it
// with a default Watcher: the handler's frames, named main.(*server).held,
// are own code though the module path is not in them.
func TestPackageMainHandlersAreOwnCode(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mainsvc")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/mainsvc").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatalf("mainsvc: %v", err)
	}
	report, metrics, _ := strings.Cut(string(out), "\n")
	var r Report
	if err := json.Unmarshal([]byte(report), &r); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	var held *Site
	for i, s := range r.Sites {
		if s.Func == "main.(*server).held" {
			held = &r.Sites[i]
		}
	}
	if held == nil || r.RequestS <= 0 || len(r.Warnings) > 0 {
		t.Fatalf("package main not seen as own code: request_s %v, warnings %q, sites %+v", r.RequestS, r.Warnings, r.Sites)
	}
	if !held.HoldingWorker || held.Routes["GET /held"] != held.BlockedS || held.Site != "main.(*server).held" {
		t.Errorf("site %+v, want main.(*server).held holding a worker, all on GET /held", *held)
	}
	if !strings.Contains(metrics, "syncio_blockwatch_request_seconds_total ") || strings.Contains(metrics, "not_counting") {
		t.Errorf("/metrics:\n%s", metrics)
	}
}

// TestNoOwnCodeSaysSo: with a filter that matches none of the labelled
// requests' frames, the report, the sums and /metrics say so in words
// instead of a request time of 0.
func TestNoOwnCodeSaysSo(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	go Do(context.Background(), "/elsewhere", func(context.Context) { receiver(stop) })
	eventually(t, func(r Report) bool { return len(find(r, "receiver")) == 1 })
	w := New(WithModule("example.com/elsewhere"))
	if err := w.sample(time.Second); err != nil {
		t.Fatal(err)
	}
	r := w.Report()
	want := `no frame of theirs matched the own-code filter "example.com/elsewhere", "main"`
	if r.RequestS != 0 || r.OutsideOwnCodeS < 1 || len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], want) {
		t.Fatalf("request_s %v outside %v warnings %q; want 0, >= 1 and a warning saying %q", r.RequestS, r.OutsideOwnCodeS, r.Warnings, want)
	}
	if !strings.Contains(w.Totals().NoOwnCode, "WithModule") {
		t.Errorf("Totals().NoOwnCode = %q, want the fix named", w.Totals().NoOwnCode)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(NewCollector(w))
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var reason string
	for _, f := range fams {
		switch f.GetName() {
		case "syncio_blockwatch_not_counting":
			reason = f.GetMetric()[0].GetLabel()[0].GetValue()
		case "syncio_blockwatch_request_seconds_total", "syncio_blockwatch_blocked_seconds_total":
			t.Errorf("%s sent as %v while nothing was counted", f.GetName(), f.GetMetric()[0].GetCounter().GetValue())
		}
	}
	if !strings.Contains(reason, want) {
		t.Errorf("not_counting reason %q, want %q", reason, want)
	}
}

// TestWatchedSecondsIsTheDenominator: one sample that stands for 3 s adds
// 3 s to watched_seconds_total, so a window's blocked increase divided by
// the watched increase is the number of goroutines parked (2), where
// divided by a 1 s window it would read 6.
func TestWatchedSecondsIsTheDenominator(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	run++
	route := fmt.Sprintf("/watched#%d", run)
	for range 2 {
		go Do(context.Background(), route, func(context.Context) { receiver(stop) })
	}
	w := eventually(t, func(r Report) bool {
		for _, x := range r.Routes {
			if x.Route == route {
				return x.BlockedS > 0.199
			}
		}
		return false
	})
	counters := func() (watched, blocked float64) {
		reg := prometheus.NewRegistry()
		reg.MustRegister(NewCollector(w))
		fams, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fams {
			for _, m := range f.GetMetric() {
				switch {
				case f.GetName() == "syncio_blockwatch_watched_seconds_total":
					watched = m.GetCounter().GetValue()
				case f.GetName() == "syncio_blockwatch_route_blocked_seconds_total" && m.GetLabel()[0].GetValue() == route:
					blocked = m.GetCounter().GetValue()
				}
			}
		}
		return watched, blocked
	}
	w0, b0 := counters()
	if err := w.sample(3 * time.Second); err != nil {
		t.Fatal(err)
	}
	w1, b1 := counters()
	if dw := w1 - w0; dw < 2.999 || dw > 3.001 {
		t.Fatalf("watched_seconds_total rose by %v for one sample of 3 s", dw)
	}
	if mean := (b1 - b0) / (w1 - w0); mean < 1.999 || mean > 2.001 {
		t.Errorf("blocked increase / watched increase = %v, want the 2 goroutines parked", mean)
	}
}

// TestRouteShares: a route's shares are of its own request time and of
// its own slot time, apart from the overall share.
func TestRouteShares(t *testing.T) {
	stop := make(chan struct{})
	var spin atomic.Bool
	spin.Store(true)
	defer func() { spin.Store(false); close(stop) }()
	run++
	route := fmt.Sprintf("/mixed#%d", run)
	other := fmt.Sprintf("/other#%d", run)
	hold := func(f func()) func(context.Context) {
		return func(ctx context.Context) {
			_, release := Hold(ctx, "pool")
			defer release()
			f()
		}
	}
	// On /mixed: one request parked holding a worker, one running holding
	// a worker, one parked holding nothing. On /other: three parked.
	go Do(context.Background(), route, hold(func() { receiver(stop) }))
	go Do(context.Background(), route, hold(func() { spinner(&spin) }))
	go Do(context.Background(), route, func(context.Context) { receiver(stop) })
	for range 3 {
		go Do(context.Background(), other, func(context.Context) { receiver(stop) })
	}
	routeOf := func(r Report, name string) (Route, bool) {
		i := slices.IndexFunc(r.Routes, func(x Route) bool { return x.Route == name })
		if i < 0 {
			return Route{}, false
		}
		return r.Routes[i], true
	}
	w := eventually(t, func(r Report) bool {
		m, ok1 := routeOf(r, route)
		o, ok2 := routeOf(r, other)
		// Wait until all six are seen, the spinner running.
		return ok1 && ok2 && m.RequestS > 0.299 && m.BlockedS > 0.199 && m.BlockedS < 0.201 && o.BlockedS > 0.299
	})
	r := w.Report()
	m, _ := routeOf(r, route)
	if m.HoldingWorkerS < 0.199 || m.HoldingWorkerS > 0.201 || m.BlockedHoldingWorkerS < 0.099 || m.BlockedHoldingWorkerS > 0.101 {
		t.Errorf("/mixed holding %v blocked holding %v, want 0.2 and 0.1", m.HoldingWorkerS, m.BlockedHoldingWorkerS)
	}
	if m.Share < 0.666 || m.Share > 0.667 || m.SlotShare == nil || *m.SlotShare != 0.5 {
		t.Errorf("/mixed share %v slot share %v, want 2/3 and 1/2", m.Share, m.SlotShare)
	}
	if o, _ := routeOf(r, other); o.SlotShare != nil || o.Share != 1 {
		t.Errorf("/other share %v slot share %v, want 1 and none (it held no worker)", o.Share, o.SlotShare)
	}
	for _, s := range find(r, "receiver") {
		if s.HoldingWorker && s.Routes[route] > 0 && (s.RouteShares[route] < 0.333 || s.RouteShares[route] > 0.334) {
			t.Errorf("site share of /mixed %v, want 1/3", s.RouteShares[route])
		}
	}
}

//go:noinline
func spinner(on *atomic.Bool) {
	for on.Load() {
	}
}

// TestWindowsUnderTheMinimumShowNoFigure: a window with too few samples
// has no figures and says why; so does a window with none, between two
// that were sampled.
func TestWindowsUnderTheMinimumShowNoFigure(t *testing.T) {
	w := New(WithModule(module), WithWindow(10*time.Second, 3))
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for i := range 3 {
		if err := w.sampleAt(t0.Add(time.Duration(i)*time.Second), time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.sampleAt(t0.Add(35*time.Second), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	r := w.Report()
	if len(r.Windows) != 4 || r.MinSamples != 3 || r.WindowS != 10 {
		t.Fatalf("windows %+v, want four of 10 s with a minimum of 3", r.Windows)
	}
	if full := r.Windows[0]; full.Samples != 3 || full.RequestS == nil || full.BlockedS == nil || full.Reason != "" {
		t.Errorf("first window %+v, want 3 samples with figures", full)
	}
	for i, want := range []string{"", "0 samples in this 10s window, under the minimum of 3", "0 samples", "1 samples in this 10s window, under the minimum of 3 for a figure: sampling ran at 0.1 Hz of the 20 Hz asked"} {
		if i == 0 {
			continue
		}
		win := r.Windows[i]
		if win.RequestS != nil || win.BlockedS != nil || win.BlockedHoldingWorkerS != nil || !strings.Contains(win.Reason, want) {
			t.Errorf("window %d: %+v, want no figures and a reason saying %q", i, win, want)
		}
	}
	data, err := json.Marshal(r.Windows[3])
	if err != nil || !strings.Contains(string(data), `"request_s":null`) {
		t.Errorf("JSON of a window under the minimum: %s %v, want a null figure", data, err)
	}
}

// TestBodyReadsAreNetwork: a handler reading a request body that the
// client sends slowly waits on the network, over HTTP/1 and HTTP/2 alike.
func TestBodyReadsAreNetwork(t *testing.T) {
	run++
	h1, h2 := fmt.Sprintf("/h1#%d", run), fmt.Sprintf("/h2#%d", run)
	handler := func(route string) http.Handler {
		return Label(route, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { bodyReader(r) }))
	}
	mux := http.NewServeMux()
	mux.Handle("/h1", handler(h1))
	mux.Handle("/h2", handler(h2))
	srv1 := httptest.NewServer(mux)
	defer srv1.Close()
	srv2 := httptest.NewUnstartedServer(mux)
	srv2.EnableHTTP2 = true
	srv2.StartTLS()
	defer srv2.Close()

	var writers []*io.PipeWriter
	post := func(c *http.Client, url string) {
		pr, pw := io.Pipe()
		writers = append(writers, pw)
		go func() {
			if resp, err := c.Post(url, "application/octet-stream", pr); err == nil {
				_ = resp.Body.Close()
			}
		}()
		go func() { _, _ = pw.Write([]byte("x")) }() // a first byte, then nothing until the end
	}
	post(srv1.Client(), srv1.URL+"/h1")
	post(srv2.Client(), srv2.URL+"/h2")
	defer func() {
		for _, pw := range writers {
			_ = pw.Close()
		}
	}()
	onRoute := func(r Report, route string) []Site {
		var out []Site
		for _, s := range find(r, "bodyReader") {
			if s.Routes[route] > 0 {
				out = append(out, s)
			}
		}
		return out
	}
	w := eventually(t, func(r Report) bool { return len(onRoute(r, h1)) == 1 && len(onRoute(r, h2)) == 1 })
	for _, route := range []string{h1, h2} {
		if s := onRoute(w.Report(), route)[0]; s.Kind != Network {
			t.Errorf("%s: body read is %s at %s, want network", route, s.Kind, s.Blocking)
		}
	}
}

//go:noinline
func bodyReader(r *http.Request) { _, _ = io.ReadAll(r.Body) }
