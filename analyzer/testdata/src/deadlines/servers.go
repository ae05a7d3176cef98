package deadlines

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

var mux = http.NewServeMux()

func bare() *http.Server {
	return &http.Server{Addr: ":8080", Handler: mux} // want `^http.Server\{\} has no ReadHeaderTimeout and no IdleTimeout \(nor ReadTimeout\): a client that sends its headers slowly holds a connection and a goroutine for ever, and an idle keep-alive connection is held for ever; set ReadHeaderTimeout and IdleTimeout \(SIO008\)$`
}

func both() *http.Server {
	return &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
}

// ReadTimeout bounds the headers and, when IdleTimeout is zero, the idle
// wait too (net/http's defaults).
func readTimeoutOnly() *http.Server {
	return &http.Server{Handler: mux, ReadTimeout: 5 * time.Second}
}

func headerOnly() *http.Server {
	return &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second} // want `^http.Server\{\} has no IdleTimeout \(nor ReadTimeout\): an idle keep-alive connection is held for ever; set IdleTimeout \(SIO008\)$`
}

// A zero constant is no timeout.
func zero() *http.Server {
	return &http.Server{Handler: mux, ReadHeaderTimeout: 0, IdleTimeout: time.Minute} // want `has no ReadHeaderTimeout \(nor ReadTimeout\)`
}

func newServer() *http.Server {
	return new(http.Server) // want `^new\(http.Server\) has no ReadHeaderTimeout and no IdleTimeout`
}

func listen() error {
	return http.ListenAndServe(":8080", mux) // want `^net/http.ListenAndServe serves with a server that has no timeouts: .*; serve from an http.Server with ReadHeaderTimeout and IdleTimeout set \(SIO008\)$`
}

func serve(l net.Listener) error {
	return http.Serve(l, mux) // want `net/http.Serve serves with a server that has no timeouts`
}

func ginRun() error {
	r := gin.New()
	return r.Run(":8080") // want `gin.\(\*Engine\).Run serves with a server that has no timeouts`
}

func suppressed() error {
	//syncio:ignore SIO008 -- a debug listener on localhost, closed with the process
	return http.ListenAndServe("localhost:6060", nil)
}

func dialers(ctx context.Context) { // want dialers:`^io\(net.\(\*Dialer\).DialContext\)$`
	d := &net.Dialer{KeepAlive: 30 * time.Second} // want `^net.Dialer\{\} has no Timeout: .*; set Timeout \(SIO008\)$`
	_, _ = d.DialContext(ctx, "tcp", "db:5432")
	ok := &net.Dialer{Timeout: 5 * time.Second}
	_, _ = ok.DialContext(ctx, "tcp", "db:5432")
	td := &tls.Dialer{} // want `^tls.Dialer\{\} has no NetDialer`
	_, _ = td.DialContext(ctx, "tcp", "db:443")
	tok := &tls.Dialer{NetDialer: &net.Dialer{Timeout: 5 * time.Second}}
	_, _ = tok.DialContext(ctx, "tcp", "db:443")
}

// A dialer whose every dial is given a context with a deadline is bounded.
func dialBounded(ctx context.Context) { // want dialBounded:`^io\(net.\(\*Dialer\).DialContext\)$`
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, _ = (&net.Dialer{}).DialContext(dctx, "tcp", "db:5432")
	var d net.Dialer
	_ = d
	local := &net.Dialer{}
	_, _ = local.DialContext(dctx, "tcp", "db:5432")
	leaks := &net.Dialer{} // want `net.Dialer\{\} has no Timeout`
	_, _ = leaks.DialContext(dctx, "tcp", "db:5432")
	_, _ = leaks.Dial("tcp", "db:5432")
}

// A dialer whose every dial is to a unix socket waits on no remote peer: a
// local connect fails at once when nothing listens (opengist's IPC client).
func dialUnix(ctx context.Context, socket string) { // want dialUnix:`^io\(net.\(\*Dialer\).DialContext\)$`
	_, _ = (&net.Dialer{}).DialContext(ctx, "unix", socket)
	local := &net.Dialer{}
	_, _ = local.Dial("unixpacket", socket)
	mixed := &net.Dialer{} // want `net.Dialer\{\} has no Timeout`
	_, _ = mixed.DialContext(ctx, "unix", socket)
	_, _ = mixed.DialContext(ctx, "tcp", "db:5432")
}
