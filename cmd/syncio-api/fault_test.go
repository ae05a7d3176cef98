package main

import (
	"bufio"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/syncio/syncio/api/activity/temporal/temporaltest"
)

// childArgs names the variable that makes this test binary run as
// syncio-api itself, with the variable's value as its arguments: the fault
// tests signal a child process, never the test's own.
const childArgs = "SYNCIO_API_TEST_CHILD_ARGS"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(childArgs); ok {
		os.Exit(run(strings.Fields(args), os.Stderr))
	}
	os.Exit(m.Run())
}

// child is syncio-api running in a child process.
type child struct {
	cmd    *exec.Cmd
	url    string
	log    *syncBuffer
	exited chan struct{} // closed when cmd.Wait returned
	err    error         // cmd.Wait's result, once exited
}

// childCommand is the command that runs this test binary as syncio-api
// with args, on the embedded storage.
func childCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childArgs+"="+strings.Join(args, " "), "AZURE_STORAGE_CONNECTION_STRING=")
	return cmd
}

// startChild runs syncio-api with args in a child process and waits for
// its listening line.
func startChild(t *testing.T, args ...string) *child {
	t.Helper()
	return watchChild(t, childCommand(args...))
}

// watchChild starts cmd, a childCommand, and waits for its listening line.
func watchChild(t *testing.T, cmd *exec.Cmd) *child {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, log: &syncBuffer{}, exited: make(chan struct{})}
	copied := make(chan struct{})
	go func() { defer close(copied); _, _ = io.Copy(c.log, stderr) }()
	go func() { <-copied; c.err = cmd.Wait(); close(c.exited) }()
	t.Cleanup(func() {
		select {
		case <-c.exited:
		default:
			_ = cmd.Process.Kill()
			<-c.exited
		}
		if t.Failed() {
			t.Logf("child's log:\n%s", c.log.String())
		}
	})
	urlRE := regexp.MustCompile(`msg="syncio-api listening" url=(http://\S+)`)
	for deadline := time.Now().Add(60 * time.Second); ; {
		if m := urlRE.FindStringSubmatch(c.log.String()); m != nil {
			c.url = m[1]
			return c
		}
		select {
		case <-c.exited:
			t.Fatalf("child exited before listening: %v", c.err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("child did not start listening")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// exitCode waits for the child to exit (failing the test past limit, a
// guard against a hang, not a timing assertion) and returns its status.
func (c *child) exitCode(t *testing.T, limit time.Duration) int {
	t.Helper()
	select {
	case <-c.exited:
	case <-time.After(limit):
		t.Fatalf("child still running %s after the signal", limit)
	}
	var exit *exec.ExitError
	if errors.As(c.err, &exit) {
		return exit.ExitCode()
	}
	if c.err != nil {
		t.Fatal(c.err)
	}
	return 0
}

// metric reads one series of the child's /metrics, or -1 if absent.
func (c *child) metric(t *testing.T, series string) float64 {
	t.Helper()
	resp, err := http.Get(c.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), series+" "); ok {
			var v float64
			if _, err := fmt.Sscan(rest, &v); err == nil {
				return v
			}
		}
	}
	return -1
}

// TestFaultSIGTERMWithSlowClients: SIGTERM while a request is in flight
// and a slow client is still sending its upload body. The in-flight request
// finishes with 200; at -shutdown-timeout the slow client's connection is
// closed without an answer (nothing of it was acknowledged), the log counts
// it, and the process exits 0. Before, the shutdown waited the bound out
// and exited 1.
func TestFaultSIGTERMWithSlowClients(t *testing.T) {
	c := startChild(t, "-addr", "127.0.0.1:0", "-workers", "2", "-profile-latency", "300ms",
		"-storage-latency", "0", "-storage-bandwidth", "0", "-body-timeout", "1h", "-shutdown-timeout", "3s")

	// The slow client: headers, then a byte every 100 ms of a 1000-byte body.
	slow, err := net.Dial("tcp", strings.TrimPrefix(c.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	if _, err := io.WriteString(slow, "POST /api/async/upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	stopDrip := make(chan struct{})
	defer close(stopDrip)
	go func() {
		for {
			select {
			case <-stopDrip:
				return
			case <-time.After(100 * time.Millisecond):
				if _, err := slow.Write([]byte{'x'}); err != nil {
					return
				}
			}
		}
	}()
	// The in-flight request: a sync profile call holds a worker for 300 ms.
	inflight := make(chan int, 1)
	go func() {
		resp, err := http.Get(c.url + "/api/sync/profile")
		if err != nil {
			inflight <- -1
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		inflight <- resp.StatusCode
	}()
	for deadline := time.Now().Add(30 * time.Second); c.metric(t, "syncio_upload_inflight_bytes") <= 0 || c.metric(t, "syncio_pool_workers_busy") < 1; {
		if time.Now().After(deadline) {
			t.Fatal("the slow upload and the profile call were never both in flight")
		}
		time.Sleep(5 * time.Millisecond)
	}

	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := c.exitCode(t, time.Minute); code != 0 {
		t.Fatalf("exit status %d after SIGTERM with a slow client, want 0", code)
	}
	if st := <-inflight; st != http.StatusOK {
		t.Errorf("request in flight at SIGTERM: %d, want 200 (drained)", st)
	}
	_ = slow.SetReadDeadline(time.Now().Add(10 * time.Second))
	if b, _ := io.ReadAll(slow); strings.HasPrefix(string(b), "HTTP/1.1 2") {
		t.Errorf("the slow client was answered %q; its upload never arrived", b)
	}
	log := c.log.String()
	if !strings.Contains(log, `msg="shutdown bound reached`) || !strings.Contains(log, "connections=1") {
		t.Errorf("no count of the closed connection in the log:\n%s", log)
	}
	if !strings.Contains(log, "syncio-api stopped") {
		t.Errorf("no stop logged:\n%s", log)
	}
}

// TestFaultKilledAPIKeepsStorage is the probe: with Temporal and the
// embedded store, an API killed with SIGKILL and started again must not
// leave completed orders pointing at receipts that are gone. With
// -storage-path the upload and the receipt acknowledged before the kill
// are read back, with their MD5s, from the restarted API; the order's
// status on Temporal names the same receipt.
func TestFaultKilledAPIKeepsStorage(t *testing.T) {
	ts := temporaltest.Start(t)
	dir := filepath.Join(t.TempDir(), "blobs")
	args := []string{"-addr", "127.0.0.1:0", "-storage-path", dir, "-storage-latency", "0", "-storage-bandwidth", "0",
		"-profile-latency", "5ms", "-temporal", ts.HostPort, "-temporal-wait", "30s"}
	first := startChild(t, args...)

	var upload struct{ Name, MD5 string }
	postJSON(t, first.url+"/api/sync/upload?size=70000", "", http.StatusCreated, &upload)
	var conf struct {
		OrderID string
		Receipt struct{ Name, MD5 string }
	}
	postJSON(t, first.url+"/api/async/order", `{"id":"killed-1","items":[{"sku":"pen","quantity":2,"priceCents":150}]}`, http.StatusCreated, &conf)
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-first.exited

	second := startChild(t, args...)
	for name, want := range map[string]string{upload.Name: upload.MD5, conf.Receipt.Name: conf.Receipt.MD5} {
		resp, err := http.Get(second.url + "/api/blobs/" + name)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		sum := md5.Sum(b)
		if resp.StatusCode != http.StatusOK || hex.EncodeToString(sum[:]) != want {
			t.Errorf("%s after SIGKILL and restart: %d, md5 %x, want 200 md5 %s", name, resp.StatusCode, sum, want)
		}
	}
	var status struct {
		Status       string
		Confirmation struct{ Receipt struct{ Name string } }
	}
	resp, err := http.Get(second.url + "/api/orders/order-killed-1")
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&status)
	resp.Body.Close()
	if err != nil || status.Status != "completed" || status.Confirmation.Receipt.Name != conf.Receipt.Name {
		t.Errorf("order status after restart: %+v %v, want completed with receipt %s", status, err, conf.Receipt.Name)
	}
}

// postJSON posts body and decodes the answer into out, failing unless its
// status is want.
func postJSON(t *testing.T, url, body string, want int, out any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("POST %s: %d %s, want %d", url, resp.StatusCode, b, want)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("POST %s: %s: %v", url, b, err)
	}
}
