// Command delayproxy is a TCP proxy that adds a fixed latency to everything
// an upstream sends back. It puts the embedded blob fake's storage latency
// in front of a real Blob service, so the two can be compared under the same
// load (docs/results.md, "Checked against Azurite"):
//
//	go run ./tools/delayproxy -listen 127.0.0.1:10001 -upstream 127.0.0.1:10000 -delay 200ms
//
// Only loopback is meant: it is a test tool with no limits on who connects.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("delayproxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:0", "address to listen on")
	upstream := fs.String("upstream", "127.0.0.1:10000", "address to forward to")
	delay := fs.Duration("delay", 0, "latency added to every byte coming back from the upstream")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *delay < 0 {
		fmt.Fprintln(stderr, "delayproxy: -delay must not be negative")
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	p, err := Listen(*listen, *upstream, *delay, log)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "listening %s\n", p.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	if err := p.Close(); err != nil {
		log.Warn("delayproxy: close", "err", err)
	}
	return 0
}
