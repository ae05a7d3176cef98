package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syncio/syncio/api"
)

// TestMemoryLimitAndUploadSlots: the process runs under -memory-limit
// (by default none with the embedded blob fake, api.MemoryLimitFor;
// GOMEMLIMIT wins over the default, not over the flag), and
// -max-inflight-uploads reaches the API, as its /metrics read them. The
// default with external storage is TestStorageChild's, in syncio-load.
func TestMemoryLimitAndUploadSlots(t *testing.T) {
	base := []string{"-addr", "127.0.0.1:0", "-storage-latency", "0", "-storage-bandwidth", "0"}
	for _, tc := range []struct {
		name, env string
		args      []string
		limit     float64
		slots     float64
	}{
		// The embedded blob fake is in the process: no limit by default
		// (9.223372036854776e+18 is math.MaxInt64, none).
		{"defaults", "", nil, math.MaxInt64, float64(api.DefaultConfig().MaxInflightUploads)},
		{"flags", "", []string{"-memory-limit", "104857600", "-max-inflight-uploads", "7"}, 100 << 20, 7},
		{"GOMEMLIMIT", "150MiB", nil, 150 << 20, float64(api.DefaultConfig().MaxInflightUploads)},
		{"GOMEMLIMIT and the flag", "150MiB", []string{"-memory-limit", "104857600"}, 100 << 20, float64(api.DefaultConfig().MaxInflightUploads)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", tc.env)
			c := startChild(t, append(base, tc.args...)...)
			if got := c.metric(t, "syncio_memory_limit_bytes"); got != tc.limit {
				t.Errorf("syncio_memory_limit_bytes %v, want %v", got, tc.limit)
			}
			if got := c.metric(t, "syncio_upload_inflight_max_uploads"); got != tc.slots {
				t.Errorf("syncio_upload_inflight_max_uploads %v, want %v", got, tc.slots)
			}
		})
	}
}

// TestConnFlags: -max-conns, -reserved-conns and -idle-timeout reach the
// API, as its listening line and /metrics report them; without them the
// cap is api.DefaultMaxConns.
func TestConnFlags(t *testing.T) {
	base := []string{"-addr", "127.0.0.1:0", "-storage-latency", "0", "-storage-bandwidth", "0"}
	for _, tc := range []struct {
		name  string
		args  []string
		line  string
		limit float64
	}{
		{"defaults", nil, "max_conns=5000 reserved_conns=32 idle_timeout=1m15s", api.DefaultMaxConns},
		{"flags", []string{"-max-conns", "7", "-reserved-conns", "3", "-idle-timeout", "5s"}, "max_conns=7 reserved_conns=3 idle_timeout=5s", 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := startChild(t, append(base, tc.args...)...)
			if !strings.Contains(c.log.String(), tc.line) {
				t.Errorf("the listening line lacks %q", tc.line)
			}
			if got := c.metric(t, "syncio_http_connections_max"); got != tc.limit {
				t.Errorf("syncio_http_connections_max %v, want %v", got, tc.limit)
			}
		})
	}
}

// underFileLimit runs cmd under an open-file limit (soft and hard) of n,
// as a container or a unit with a low nofile would.
func underFileLimit(t *testing.T, cmd *exec.Cmd, n int) *exec.Cmd {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skipf("no sh to set the open-file limit with: %v", err)
	}
	limited := exec.Command(sh, "-c", fmt.Sprintf(`ulimit -n %d && exec "$0"`, n), cmd.Path)
	limited.Env = cmd.Env
	return limited
}

// Scaled down from the 1,200 open files and 1,250 keep-alives:
// what the embedded storage may hold is kept small (fileArgs), so that
// the connections the test opens stay few.
const fileLimit, keepAlives = 300, 350

var fileArgs = []string{"-addr", "127.0.0.1:0", "-storage-latency", "0", "-storage-bandwidth", "0",
	"-workers", "4", "-storage-conns", "4", "-storage-max-bytes", "67108864"}

// TestFaultKeepAlivesPastFileLimit is the fault: more keep-alive
// clients than the process may open files. The default budget is lowered
// to fit the limit (logged); every client gets an HTTP answer, 200 within
// the budget and 503 too_many_connections past it; the ones within stay
// open, idle; and /healthz and /readyz still answer. Before, accept failed
// with "too many open files" once the limit was reached: the clients past
// it, and the probes, hung.
func TestFaultKeepAlivesPastFileLimit(t *testing.T) {
	c := watchChild(t, underFileLimit(t, childCommand(append(fileArgs, "-profile-latency", "1ms")...), fileLimit))
	if !strings.Contains(c.log.String(), "lowered -max-conns to fit") {
		t.Errorf("no warning that the budget was lowered to fit the open-file limit")
	}
	// From the log: a scrape of /metrics would hold a keep-alive of its own.
	m := regexp.MustCompile(`msg="syncio-api listening" .* max_conns=(\d+)`).FindStringSubmatch(c.log.String())
	if m == nil {
		t.Fatal("no max_conns in the listening line")
	}
	budget, _ := strconv.Atoi(m[1])
	if budget <= 0 || budget >= fileLimit {
		t.Fatalf("max_conns %d, want a budget under the limit of %d", budget, fileLimit)
	}
	addr := strings.TrimPrefix(c.url, "http://")

	type answer struct {
		conn   net.Conn
		status int
		err    error
	}
	answers := make(chan answer, keepAlives)
	for range keepAlives {
		go func() {
			conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
			if err != nil {
				answers <- answer{err: err}
				return
			}
			t.Cleanup(func() { _ = conn.Close() })
			_ = conn.SetDeadline(time.Now().Add(20 * time.Second)) // a bound against a hang
			if _, err := io.WriteString(conn, "GET /api/async/profile HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
				answers <- answer{err: err}
				return
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				answers <- answer{err: err}
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			answers <- answer{conn: conn, status: resp.StatusCode}
		}()
	}
	var ok, busy int
	var failed []string
	for range keepAlives {
		a := <-answers
		switch {
		case a.err != nil:
			failed = append(failed, a.err.Error())
		case a.status == http.StatusOK:
			ok++
		case a.status == http.StatusServiceUnavailable:
			busy++
		default:
			failed = append(failed, fmt.Sprintf("status %d", a.status))
		}
	}
	if len(failed) > 0 {
		t.Errorf("%d of %d clients got no 200 or 503: %q", len(failed), keepAlives, failed[:min(len(failed), 5)])
	}
	if ok != budget || busy != keepAlives-budget {
		t.Errorf("%d answered 200 and %d 503, want the budget's %d and the other %d", ok, busy, budget, keepAlives-budget)
	}
	probe := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	for _, path := range []string{"/healthz", "/readyz"} {
		resp, err := probe.Get(c.url + path)
		if err != nil {
			t.Errorf("GET %s with %d keep-alives idle: %v", path, ok, err)
			continue
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s with %d keep-alives idle: %d", path, ok, resp.StatusCode)
		}
	}
}

// TestConnBudgetPastFileLimitFailsStart: a -max-conns that the open-file
// limit cannot hold fails start-up (exit 1), naming the limit and what to
// change, instead of failing under load.
func TestConnBudgetPastFileLimitFailsStart(t *testing.T) {
	cmd := underFileLimit(t, childCommand(append(fileArgs, "-max-conns", "1000")...), fileLimit)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit %v, want status 1; output:\n%s", err, out)
	}
	for _, want := range []string{"-max-conns 1000", "open-file limit is 300", "ulimit -n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the message lacks %q:\n%s", want, out)
		}
	}
}
