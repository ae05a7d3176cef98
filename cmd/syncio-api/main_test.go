package main

import (
	"bytes"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a goroutine-safe stderr for run.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestHelp checks that the flags the README and docs name still exist, and
// that no flag is printed without a description.
func TestHelp(t *testing.T) {
	var out syncBuffer
	if code := run([]string{"-h"}, &out); code != 0 {
		t.Fatalf("-h exit code %d", code)
	}
	help := out.String()
	for _, flag := range []string{"-addr", "-workers", "-queue", "-profile-latency", "-profile-url",
		"-max-upload", "-pprof", "-blockwatch", "-blockwatch-hz", "-blockwatch-budget", "-upstream-timeout", "-shutdown-timeout", "-debug-addr", "-storage-path", "-max-inflight-uploads", "-memory-limit", "-max-conns", "-reserved-conns", "-idle-timeout", "AZURE_STORAGE_CONNECTION_STRING"} {
		if !strings.Contains(help, flag) {
			t.Errorf("-h output lacks %s", flag)
		}
	}
	// flag.PrintDefaults prints "  -name type" and then the usage on the
	// next line after a tab; an empty usage leaves that line blank.
	lines := strings.Split(help, "\n")
	flags := 0
	for i, l := range lines {
		if !strings.HasPrefix(l, "  -") {
			continue
		}
		flags++
		if i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) == "" {
			t.Errorf("flag %q has no description", strings.TrimSpace(l))
		}
	}
	if flags < 10 {
		t.Errorf("found %d flags in -h output, want at least 10:\n%s", flags, help)
	}
}

func TestBadFlagsExit2(t *testing.T) {
	for _, args := range [][]string{{"-workers", "many"}, {"extra-arg"}, {"-log-level", "loud"},
		{"-temporal", "localhost"}, {"-temporal-wait", "0s"}, {"-debug-addr", "localhost"},
		{"-storage-path", "/tmp/a", "-storage-dir", "/tmp/b"}} {
		var out syncBuffer
		if code := run(args, &out); code != 2 {
			t.Errorf("%v: exit code %d, want 2", args, code)
		}
		// The message names the flag and the value.
		if len(args) >= 2 && (strings.HasPrefix(args[0], "-temporal") || strings.HasSuffix(args[0], "-addr") || args[0] == "-storage-path") && !strings.Contains(out.String(), args[0]+" ") {
			t.Errorf("%v: message %q does not name the flag", args, out.String())
		}
	}
}

func TestBadBlockwatchRateNamesFlagAndValue(t *testing.T) {
	for _, v := range []string{"0", "1001"} {
		var out syncBuffer
		if code := run([]string{"-blockwatch-hz", v}, &out); code != 2 ||
			!strings.Contains(out.String(), "-blockwatch-hz "+v+": want 1 to 1000") {
			t.Errorf("-blockwatch-hz %s: exit %d, output %q; want 2 naming the flag and value", v, code, out.String())
		}
	}
}

func TestBadBlockwatchBudgetNamesFlagAndValue(t *testing.T) {
	for _, v := range []string{"0", "1.5", "-0.1"} {
		var out syncBuffer
		if code := run([]string{"-blockwatch-budget", v}, &out); code != 2 ||
			!strings.Contains(out.String(), "-blockwatch-budget "+v+": want a share of one core") {
			t.Errorf("-blockwatch-budget %s: exit %d, output %q; want 2 naming the flag and value", v, code, out.String())
		}
	}
}

func TestPortTakenIsAClearError(t *testing.T) {
	t.Setenv("AZURE_STORAGE_CONNECTION_STRING", "")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var out syncBuffer
	if code := run([]string{"-addr", ln.Addr().String()}, &out); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	msg := out.String()
	if !strings.Contains(msg, "syncio-api: listen on "+ln.Addr().String()) || strings.Contains(msg, "goroutine ") {
		t.Fatalf("want a one-line listen error, got:\n%s", msg)
	}
}

// SIGTERM stops the server gracefully with exit status 0.
func TestSIGTERMShutsDownCleanly(t *testing.T) {
	t.Setenv("AZURE_STORAGE_CONNECTION_STRING", "")
	var out syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"-addr", "127.0.0.1:0", "-workers", "2", "-profile-latency", "5ms"}, &out)
	}()
	// The signal handler is installed before Start, and Start logs the URL.
	urlRE := regexp.MustCompile(`msg="syncio-api listening" url=(http://\S+)`)
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == ""; {
		if m := urlRE.FindStringSubmatch(out.String()); m != nil {
			url = m[1]
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not start:\n%s", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	resp, err := http.Get(url + "/api/async/profile")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("profile: %d", resp.StatusCode)
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit code %d after SIGTERM, want 0:\n%s", c, out.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("no exit after SIGTERM")
	}
	if !strings.Contains(out.String(), "syncio-api stopped") {
		t.Fatalf("no graceful stop logged:\n%s", out.String())
	}
}
