// Package confirm wires blockwatch into a plain net/http service, as the
// "Confirm it under load" section of docs/remediation.md shows: a route
// label on each request, the bounded resource a request holds, and the
// watcher's report for syncio -confirm.
package confirm

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/syncio/syncio/blockwatch"
)

// Routes serves GET /quote, which holds one of slots across its backend
// call, and the watcher's report at GET /debug/syncio/blocking. The watcher
// samples until ctx ends.
func Routes(ctx context.Context, backend func(context.Context) error, slots int) http.Handler {
	w := blockwatch.New(blockwatch.WithWorker("slot")) // 20 Hz asked, at most 1% of a core
	go w.Run(ctx)

	sem := make(chan struct{}, slots)
	quote := func(rw http.ResponseWriter, r *http.Request) {
		select {
		case sem <- struct{}{}:
		case <-r.Context().Done():
			return
		}
		defer func() { <-sem }()
		ctx, release := blockwatch.Hold(r.Context(), "slot") // the wait below counts as holding a slot
		defer release()
		if err := backend(ctx); err != nil {
			slog.WarnContext(r.Context(), "quote backend failed", "err", err) // the error stays in the log, not the body
			http.Error(rw, "quote unavailable", http.StatusBadGateway)
			return
		}
		rw.WriteHeader(http.StatusNoContent)
	}

	mux := http.NewServeMux()
	mux.Handle("GET /quote", blockwatch.Label("GET /quote", http.HandlerFunc(quote)))
	mux.Handle("GET /debug/syncio/blocking", w)
	return mux
}
