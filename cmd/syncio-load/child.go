package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/syncio/syncio/api"
)

// The lab runs the API in a process of its own by default, so that the API's
// RSS, CPU and goroutines (read from its /metrics) are its own and not mixed
// with the load generator's 4000 users. The child is this same binary with
// the hidden first argument serveAPIArg: `go run ./cmd/syncio-load` then
// needs no second build.
const serveAPIArg = "serve-api"

// childConfig is what the parent sends the child on its stdin, one JSON line.
type childConfig struct {
	API     api.Config `json:"api"`
	Verbose bool       `json:"verbose"`
}

// childAPI is a running child API process.
type childAPI struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	url   string
	done  chan error // the child's exit
}

// startChildAPI starts the API from acfg in a child process and returns once
// it is listening. Its logs go to stderr.
func startChildAPI(ctx context.Context, acfg api.Config, verbose bool, stderr io.Writer) (*childAPI, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program to start the API child: %w", err)
	}
	cmd := exec.Command(exe, serveAPIArg)
	cmd.Stderr = stderr
	cmd.SysProcAttr = childProcAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("API child stdin: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("API child stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the API child: %w", err)
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
	if err := json.NewEncoder(stdin).Encode(childConfig{API: acfg, Verbose: verbose}); err != nil {
		_ = c.stop(time.Second)
		return nil, fmt.Errorf("configuring the API child: %w", err)
	}
	t := time.NewTimer(time.Minute)
	defer t.Stop()
	select {
	case line, ok := <-lines:
		url, found := strings.CutPrefix(line, "listening ")
		if !ok || !found {
			_ = c.stop(5 * time.Second)
			return nil, fmt.Errorf("the API child did not start (see its log above)")
		}
		c.url = url
		return c, nil
	case <-ctx.Done():
		_ = c.stop(5 * time.Second)
		return nil, ctx.Err()
	case <-t.C:
		_ = c.stop(5 * time.Second)
		return nil, errors.New("the API child did not listen within a minute")
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
			return fmt.Errorf("API child: %w", err)
		}
		return nil
	case <-t.C:
		_ = c.cmd.Process.Kill()
		if err := <-c.done; err != nil {
			return fmt.Errorf("API child still running %s after SIGTERM: killed (%w)", grace, err)
		}
		return fmt.Errorf("API child still running %s after SIGTERM: killed", grace)
	}
}

// serveAPI is the child's side: read the configuration from stdin, serve,
// print "listening URL" on stdout, and shut down on SIGTERM or SIGINT, or
// when stdin closes (the parent died).
func serveAPI(stdin io.Reader, stdout, stderr io.Writer) int {
	r := bufio.NewReader(stdin)
	line, err := r.ReadBytes('\n')
	if err != nil {
		fmt.Fprintf(stderr, "syncio-load %s: reading the configuration: %v\n", serveAPIArg, err)
		return 2
	}
	var cc childConfig
	if err := json.Unmarshal(line, &cc); err != nil {
		fmt.Fprintf(stderr, "syncio-load %s: decoding the configuration: %v\n", serveAPIArg, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := apiLogger(cc.Verbose, stderr)
	srv, err := api.Start(ctx, cc.API, log)
	if err != nil {
		fmt.Fprintf(stderr, "syncio-load %s: %v\n", serveAPIArg, err)
		return 1
	}
	fmt.Fprintf(stdout, "listening %s\n", srv.URL())
	parentGone := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, r)
		close(parentGone)
	}()
	select {
	case <-ctx.Done():
	case <-parentGone:
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Error("API child shutdown", "err", err)
		return 1
	}
	return 0
}
