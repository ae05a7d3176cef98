// Package temporaltest starts a throwaway Temporal dev server for tests:
// the CLI that `make temporal` builds into bin/, on free loopback ports,
// in memory, stopped when the test ends.
package temporaltest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
)

// EnvBinary names the variable that points at the temporal CLI; the
// Makefile sets it. Without it, Binary looks for bin/temporal at the root
// of the module.
const EnvBinary = "SYNCIO_TEMPORAL"

// Binary returns the path of the temporal CLI.
func Binary() (string, error) {
	if p := os.Getenv(EnvBinary); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", EnvBinary, p, err)
		}
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(dir, "bin", "temporal")
			if _, err := os.Stat(p); err != nil {
				return "", fmt.Errorf("no temporal CLI at %s (run `make temporal`): %w", p, err)
			}
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Server is a running dev server.
type Server struct {
	HostPort string
	logFile  *os.File

	mu  sync.Mutex
	srv *testsuite.DevServer // nil while stopped
}

// Start starts a dev server and stops it when t ends. Without the CLI, the
// test is skipped, except under CI=true, where it fails: CI must run it.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("temporal CLI missing under CI: %v", err)
		}
		t.Skipf("temporal CLI missing: %v", err)
	}
	logFile, err := os.Create(filepath.Join(t.TempDir(), "temporal.log"))
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{logFile: logFile}
	srv, err := s.start(bin, "")
	if err != nil {
		_ = logFile.Close()
		log, _ := os.ReadFile(logFile.Name())
		t.Fatalf("starting the temporal dev server: %v\n%s", err, log)
	}
	s.srv, s.HostPort = srv, srv.FrontendHostPort()
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Logf("stopping the temporal dev server: %v", err)
		}
		_ = logFile.Close()
	})
	return s
}

// start runs the CLI's dev server on hostPort ("" = a free port).
func (s *Server) start(bin, hostPort string) (*testsuite.DevServer, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return testsuite.StartDevServer(ctx, testsuite.DevServerOptions{
		ExistingPath: bin,
		ClientOptions: &client.Options{
			HostPort: hostPort,
			// The SDK's info chatter is noise in test output.
			Logger: sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))),
		},
		LogLevel: "error",
		// Free ports for everything else it would listen on, so that
		// parallel test binaries never collide.
		ExtraArgs: []string{"--http-port", "0", "--metrics-port", "0"},
		Stdout:    s.logFile,
		Stderr:    s.logFile,
	})
}

// Stop stops the dev server now (SIGINT, what the SDK offers), as fault
// tests need: its clients see the frontend go away, and the in-memory
// state is gone. Stopping a stopped server does nothing.
func (s *Server) Stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv == nil {
		return nil
	}
	s.srv.Client().Close() // the SDK's Stop leaves it open
	err := s.srv.Stop()
	s.srv = nil
	return err
}

// Restart starts a fresh dev server (empty, in memory) on the same
// HostPort after Stop, so clients dialled to the old one reconnect.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		t.Fatal("temporaltest: Restart of a running server")
	}
	bin, err := Binary()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := s.start(bin, s.HostPort)
	if err != nil {
		t.Fatalf("restarting the temporal dev server on %s: %v", s.HostPort, err)
	}
	s.srv = srv
}

// Client returns the client StartDevServer dialled; it is closed with the
// server.
func (s *Server) Client() client.Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.srv.Client()
}
