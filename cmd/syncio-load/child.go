package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/syncio/syncio/api"
	"github.com/syncio/syncio/fakes/blobserver"
)

// The lab runs the API in a process of its own by default, so that the API's
// RSS, CPU and goroutines (read from its /metrics) are its own and not mixed
// with the load generator's 4000 users. The child is this same binary with
// the hidden first argument serveAPIArg: `go run ./cmd/syncio-load` then
// needs no second build.
const serveAPIArg = "serve-api"

// serveBlobArg is the hidden first argument of the storage child: the
// embedded blob fake in a process of its own (-storage-child), so that the
// API child's RSS, CPU and goroutines are the API's alone, as they are
// against remote storage, and not the fake's server side of every storage
// connection, its index and its disk writes too.
const serveBlobArg = "serve-blob"

// childConfig is what the parent sends the API child on its stdin, one JSON
// line.
type childConfig struct {
	API     api.Config `json:"api"`
	Verbose bool       `json:"verbose"`
	// MemoryLimit and MemoryLimitExplicit are api.SetMemoryLimit's
	// arguments (-api-memory-limit): the child is a process that serves the
	// API alone, so the limit is its own.
	MemoryLimit         int64 `json:"memory_limit"`
	MemoryLimitExplicit bool  `json:"memory_limit_explicit"`
}

// blobChildConfig is what the parent sends the storage child.
type blobChildConfig struct {
	Storage blobserver.Config `json:"storage"`
	Dir     string            `json:"dir"`
	Verbose bool              `json:"verbose"`
}

// childAPI is a running child process: the API, or the storage child.
type childAPI struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	url   string     // what the child printed after "listening ": a URL, or a connection string
	done  chan error // the child's exit
}

// startChildAPI starts the API from acfg in a child process and returns once
// it is listening. Its logs go to stderr.
func startChildAPI(ctx context.Context, cc childConfig, stderr io.Writer) (*childAPI, error) {
	return startChild(ctx, serveAPIArg, "API", cc, stderr)
}

// startStorageChild starts the embedded blob fake in a child process and
// returns once it is listening; its url is the connection string.
func startStorageChild(ctx context.Context, bc blobChildConfig, stderr io.Writer) (*childAPI, error) {
	return startChild(ctx, serveBlobArg, "storage", bc, stderr)
}

// startChild runs this program with arg, sends it config as one JSON line
// and waits for its "listening ..." line.
func startChild(ctx context.Context, arg, what string, config any, stderr io.Writer) (*childAPI, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program to start the %s child: %w", what, err)
	}
	cmd := exec.Command(exe, arg)
	cmd.Stderr = stderr
	cmd.SysProcAttr = childProcAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("%s child stdin: %w", what, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%s child stdout: %w", what, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the %s child: %w", what, err)
	}
	c := &childAPI{cmd: cmd, stdin: stdin, done: make(chan error, 1)}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		_, _ = io.Copy(io.Discard, stdout) // nothing more is expected; do not block the child
	}()
	go func() { c.done <- cmd.Wait() }()
	if err := json.NewEncoder(stdin).Encode(config); err != nil {
		_ = c.stop(time.Second)
		return nil, fmt.Errorf("configuring the %s child: %w", what, err)
	}
	t := time.NewTimer(time.Minute)
	defer t.Stop()
	select {
	case line, ok := <-lines:
		url, found := strings.CutPrefix(line, "listening ")
		if !ok || !found {
			_ = c.stop(5 * time.Second)
			return nil, fmt.Errorf("the %s child did not start (see its log above)", what)
		}
		c.url = url
		return c, nil
	case <-ctx.Done():
		_ = c.stop(5 * time.Second)
		return nil, ctx.Err()
	case <-t.C:
		_ = c.stop(5 * time.Second)
		return nil, fmt.Errorf("the %s child did not listen within a minute", what)
	}
}

// stop asks the child to shut down gracefully (SIGTERM) and kills it if it
// has not exited within grace.
func (c *childAPI) stop(grace time.Duration) error {
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	_ = c.stdin.Close()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case err := <-c.done:
		if err != nil {
			return fmt.Errorf("child %s: %w", c.cmd.Args[1], err)
		}
		return nil
	case <-t.C:
		_ = c.cmd.Process.Kill()
		if err := <-c.done; err != nil {
			return fmt.Errorf("child %s still running %s after SIGTERM: killed (%w)", c.cmd.Args[1], grace, err)
		}
		return fmt.Errorf("child %s still running %s after SIGTERM: killed", c.cmd.Args[1], grace)
	}
}

// serveAPI is the child's side: read the configuration from stdin, serve,
// print "listening URL" on stdout, and shut down on SIGTERM or SIGINT, or
// when stdin closes (the parent died).
func serveAPI(stdin io.Reader, stdout, stderr io.Writer) int {
	r := bufio.NewReader(stdin)
	var cc childConfig
	if !childInput(r, serveAPIArg, &cc, stderr) {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := apiLogger(cc.Verbose, stderr)
	api.SetMemoryLimit(cc.MemoryLimit, cc.MemoryLimitExplicit)
	srv, err := api.Start(ctx, cc.API, log)
	if err != nil {
		fmt.Fprintf(stderr, "syncio-load %s: %v\n", serveAPIArg, err)
		return 1
	}
	fmt.Fprintf(stdout, "listening %s\n", srv.URL())
	untilStopped(ctx, r)
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Error("API child shutdown", "err", err)
		return 1
	}
	return 0
}

// serveBlob is the storage child's side: read the storage model from stdin,
// serve the blob fake on loopback, print "listening CONNECTION-STRING" on
// stdout (to the parent only: it carries the fake's well-known account
// key), and stop as serveAPI does. Its temporary directory goes with it.
func serveBlob(stdin io.Reader, stdout, stderr io.Writer) int {
	r := bufio.NewReader(stdin)
	var bc blobChildConfig
	if !childInput(r, serveBlobArg, &bc, stderr) {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	level := slog.LevelError
	if bc.Verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})).With("component", "storage")
	srv := blobserver.New(append(bc.Storage.Options(), blobserver.WithDir(bc.Dir), blobserver.WithLogger(log))...)
	if err := srv.Start("127.0.0.1:0"); err != nil {
		fmt.Fprintf(stderr, "syncio-load %s: %v\n", serveBlobArg, err)
		return 1
	}
	fmt.Fprintf(stdout, "listening %s\n", srv.ConnectionString())
	untilStopped(ctx, r)
	if err := srv.Close(); err != nil {
		log.Error("storage child shutdown", "err", err)
		return 1
	}
	return 0
}

// childInput reads a child's one-line JSON configuration from r into v;
// on failure it says on stderr which child (arg) and why.
func childInput(r *bufio.Reader, arg string, v any, stderr io.Writer) bool {
	line, err := r.ReadBytes('\n')
	if err != nil {
		fmt.Fprintf(stderr, "syncio-load %s: reading the configuration: %v\n", arg, err)
		return false
	}
	if err := json.Unmarshal(line, v); err != nil {
		fmt.Fprintf(stderr, "syncio-load %s: decoding the configuration: %v\n", arg, err)
		return false
	}
	return true
}

// untilStopped returns when ctx ends (SIGTERM or SIGINT) or r reaches its
// end: the parent closed the child's stdin, or died.
func untilStopped(ctx context.Context, r io.Reader) {
	parentGone := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, r)
		close(parentGone)
	}()
	select {
	case <-ctx.Done():
	case <-parentGone:
	}
	// Stopping now. The parent signals, then closes stdin, and the child
	// may see either first: a SIGTERM still on its way when the shutdown
	// is done and the handler is gone would kill the child with the
	// default action ("signal: terminated", seen once in CI under load).
	// The parent kills after its grace if the shutdown hangs.
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
}

// peakRSS is the child's peak resident set size so far (VmHWM in
// /proc/PID/status), in bytes; an error where there is no /proc.
func (c *childAPI) peakRSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		return 0, fmt.Errorf("no /proc to read it from: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("VmHWM %q: %w", rest, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no VmHWM", c.cmd.Process.Pid)
}
