package plain_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/syncio/syncio/examples/remediation/monitoring/plain"
)

// blockingConnector is a database/sql driver whose queries wait until their
// context ends: a stand-in for a driver reading a slow server's reply.
type blockingConnector struct{}

func (blockingConnector) Connect(context.Context) (driver.Conn, error) { return blockingConn{}, nil }
func (c blockingConnector) Driver() driver.Driver                      { return blockingDriver{c} }

type blockingDriver struct{ c blockingConnector }

func (d blockingDriver) Open(string) (driver.Conn, error) { return blockingConn{}, nil }

type blockingConn struct{}

func (blockingConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("not supported") }
func (blockingConn) Close() error                        { return nil }
func (blockingConn) Begin() (driver.Tx, error)           { return nil, errors.New("not supported") }

// QueryContext is where a real driver reads from its socket.
func (blockingConn) QueryContext(ctx context.Context, _ string, _ []driver.NamedValue) (driver.Rows, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// scrape returns the value of each unlabelled or single-series gauge and
// counter, and the sample count of each histogram, summed over series.
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for name, f := range families {
		for _, m := range f.GetMetric() {
			switch {
			case m.GetGauge() != nil:
				out[name] += m.GetGauge().GetValue()
			case m.GetCounter() != nil:
				out[name] += m.GetCounter().GetValue()
			case m.GetHistogram() != nil:
				out[name+"_count"] += float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return out
}

// TestInstrument serves a handler through Instrument and checks, on a
// scrape, that a request is counted in flight while it runs and in the
// duration histogram when it is done, and that a query waiting for the
// only connection is counted by go_sql_wait_count_total.
func TestInstrument(t *testing.T) {
	db := sql.OpenDB(blockingConnector{})
	defer db.Close()
	db.SetMaxOpenConns(1)

	reg := prometheus.NewRegistry()
	entered, release := make(chan struct{}), make(chan struct{})
	app := plain.Instrument(reg, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
		_, _ = io.WriteString(w, "ok")
	}), db, "app")
	srv := httptest.NewServer(app)
	defer srv.Close()
	metrics := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer metrics.Close()

	done := make(chan error, 1)
	go func() {
		resp, err := http.Get(srv.URL)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	<-entered
	if got := scrape(t, metrics.URL)["http_requests_in_flight"]; got != 1 {
		t.Errorf("http_requests_in_flight = %v during a request, want 1", got)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// One query holds the only connection; a second waits for it.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := db.QueryContext(ctx, "SELECT 1")
			errs <- err
		}()
	}
	waitFor(t, func() bool { return db.Stats().WaitCount == 1 })
	cancel()
	// The queries end with the cancelled context: their errors are expected.
	_, _ = <-errs, <-errs

	got := scrape(t, metrics.URL)
	for name, want := range map[string]float64{
		"http_requests_in_flight":             0,
		"http_request_duration_seconds_count": 1,
		"go_sql_max_open_connections":         1,
		"go_sql_wait_count_total":             1,
	} {
		if got[name] != want {
			t.Errorf("%s = %v, want %v", name, got[name], want)
		}
	}
	for _, name := range []string{"go_goroutines", "go_threads", "go_sql_wait_duration_seconds_total"} {
		if got[name] <= 0 {
			t.Errorf("%s = %v, want > 0", name, got[name])
		}
	}
	// Counted in clock ticks: a young test process may be at 0.
	if _, ok := got["process_cpu_seconds_total"]; !ok {
		t.Error("no process_cpu_seconds_total")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// goroutines returns every goroutine's stack, as in a goroutine profile
// with debug=2.
func goroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Split(string(buf[:n]), "\n\n")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// stackOf waits until exactly one goroutine has every string in frames (a
// frame, or a state such as "[select") and returns its stack, with the rest.
func stackOf(t *testing.T, frames ...string) (string, []string) {
	t.Helper()
	var match string
	var all []string
	waitFor(t, func() bool {
		all = goroutines()
		n := 0
		for _, g := range all {
			if containsAll(g, frames...) {
				match = g
				n++
			}
		}
		return n == 1
	})
	return match, all
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// fetchSlow is the handler-side caller in TestStackOutboundHTTP.
func fetchSlow(ctx context.Context, client *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// TestStackOutboundHTTP checks what the guide says about an outbound
// net/http call in a goroutine profile: the caller waits in a select in
// persistConn.roundTrip, and the network read (runtime_pollWait) is on the
// transport's readLoop goroutine, which has none of the caller's frames.
func TestStackOutboundHTTP(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer slow.Close()
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- fetchSlow(ctx, client, slow.URL) }()

	// Wait for the select: on the way there the caller passes through locks.
	caller, all := stackOf(t, "[select", "plain_test.fetchSlow", "net/http.(*persistConn).roundTrip")
	t.Logf("caller:\n%s", caller)
	if !strings.Contains(caller, "[select") {
		t.Errorf("caller is not in a select:\n%s", caller)
	}
	if strings.Contains(caller, "runtime_pollWait") || strings.Contains(caller, "internal/poll.(*FD).Read") {
		t.Errorf("caller has the network read on its own stack:\n%s", caller)
	}
	// The caller's connection is the receiver of its roundTrip frame; its
	// readLoop goroutine has the same receiver. Other tests' idle
	// connections may still have readLoops of their own.
	m := regexp.MustCompile(`net/http\.\(\*persistConn\)\.roundTrip\((0x[0-9a-f]+)`).FindStringSubmatch(caller)
	if m == nil {
		t.Fatalf("no persistConn in the caller's stack:\n%s", caller)
	}
	readers := 0
	for _, g := range all {
		if strings.Contains(g, "net/http.(*persistConn).readLoop("+m[1]+")") {
			readers++
			t.Logf("reader:\n%s", g)
			if !strings.Contains(g, "internal/poll.runtime_pollWait") {
				t.Errorf("the connection's readLoop is not in runtime_pollWait:\n%s", g)
			}
			if strings.Contains(g, "fetchSlow") {
				t.Errorf("readLoop goroutine has the caller's frames:\n%s", g)
			}
		}
	}
	if readers != 1 {
		t.Errorf("%d readLoop goroutines for the caller's connection, want 1", readers)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("fetchSlow: %v, want context.Canceled", err)
	}
}

// TestStackSQLPoolWait checks the database/sql case: with one connection,
// held by a query in the driver, a second query waits in (*DB).conn for the
// pool, in a select; the first is in the driver's own frames.
func TestStackSQLPoolWait(t *testing.T) {
	db := sql.OpenDB(blockingConnector{})
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 2)
	go func() { _, err := db.QueryContext(ctx, "SELECT 1"); errs <- err }()
	stackOf(t, "plain_test.blockingConn.QueryContext")
	go func() { _, err := db.QueryContext(ctx, "SELECT 2"); errs <- err }()
	// Wait for the select: on the way there the waiter takes db.mu.
	waiter, _ := stackOf(t, "[select", "database/sql.(*DB).conn", "database/sql.(*DB).QueryContext")
	t.Logf("pool waiter:\n%s", waiter)
	if !strings.Contains(waiter, "[select") || strings.Contains(waiter, "blockingConn.QueryContext") {
		t.Errorf("pool waiter is not in a select, or is in the driver:\n%s", waiter)
	}
	cancel()
	// The queries end with the cancelled context: their errors are expected.
	_, _ = <-errs, <-errs
}

// TestStackBlockingRead checks the file I/O case: a read that the netpoller
// cannot take (a regular file, or here a blocking pipe) is a system call.
// The goroutine is in [syscall] with no runtime_pollWait, and it holds an OS
// thread: with eight such reads the process has created at least nine
// threads, which is what go_threads counts.
func TestStackBlockingRead(t *testing.T) {
	const readers = 8
	var files []*os.File
	for range readers {
		var fds [2]int
		if err := syscall.Pipe(fds[:]); err != nil { // blocking, unlike os.Pipe
			t.Skip(err)
		}
		r, w := os.NewFile(uintptr(fds[0]), "r"), os.NewFile(uintptr(fds[1]), "w")
		files = append(files, r, w)
		go func() {
			buf := make([]byte, 1)
			_, _ = r.Read(buf)
		}()
	}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	var blocked []string
	waitFor(t, func() bool {
		blocked = blocked[:0]
		for _, g := range goroutines() {
			if containsAll(g, "os.(*File).Read", "internal/poll.(*FD).Read") {
				blocked = append(blocked, g)
			}
		}
		if len(blocked) != readers {
			return false
		}
		for _, g := range blocked {
			if !strings.Contains(g, "[syscall") {
				return false
			}
		}
		return true
	})
	t.Logf("reader:\n%s", blocked[0])
	for _, g := range blocked {
		if strings.Contains(g, "runtime_pollWait") {
			t.Errorf("a blocking read went to the netpoller:\n%s", g)
		}
	}
	if n, _ := runtime.ThreadCreateProfile(nil); n < readers+1 {
		t.Errorf("%d threads created with %d reads in system calls, want at least %d", n, readers, readers+1)
	}
	// Writing a byte ends each read.
	for i := 1; i < len(files); i += 2 {
		if _, err := files[i].Write([]byte{0}); err != nil {
			t.Error(err)
		}
	}
}
