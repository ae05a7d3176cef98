package after

import (
	"context"
	"net/http"
	"time"
)

// Server-side bounds: the request's context has no deadline of its own, so
// a handler bounds each call (Get), and the server bounds the request as a
// whole. TimeoutHandler also cancels the handler's context when it fires,
// so every call given r.Context() ends with it.
const (
	readHeaderTimeout = 5 * time.Second  // a slow or idle client cannot hold a connection before its request
	handlerTimeout    = 10 * time.Second // the whole handler, answered with 503 past it
	readTimeout       = 10 * time.Second // the whole request, body included: a body read does not watch the context
	writeTimeout      = 15 * time.Second // longer than handlerTimeout, so the 503 can still be written
	idleTimeout       = 60 * time.Second
)

// NewServer serves h with those bounds.
func NewServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           http.TimeoutHandler(h, handlerTimeout, `{"error":"request took too long","code":"timeout"}`),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
	}
}

// WithDeadline bounds every request's context by d without
// TimeoutHandler's buffering: the handler writes straight to the client,
// so Flush (server-sent events) and Hijack (websockets) still work, and a
// handler that runs out of time writes its own error (JSON, with its
// status). Use it for the routes that stream; it cannot answer for a
// handler that ignores its context, which TimeoutHandler can.
func WithDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}
