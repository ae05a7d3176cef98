// Package doneescape covers ctx.Done() escapes (precision class 4 of issue
// 10): a Done case counts only when its context derives from the
// request's, or is of unknown origin.
package doneescape

import (
	"context"
	"net/http"
	"time"
)

type worker struct {
	ctx  context.Context
	stop interface{ Done() <-chan struct{} }
}

var ch = make(chan int)

func Background(w http.ResponseWriter, r *http.Request) {
	select { // want `^select has no default, and its Done\(\) case is on context.Background\(\), not on the request's context, so the request cannot cancel the wait;.*\(SIO005\)$`
	case <-ch:
	case <-context.Background().Done():
	}
}

func Timeout(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	select { // want `select has no default, and its Done\(\) case is on a context derived from context.Background\(\)`
	case <-ch:
	case <-ctx.Done():
	}
	done := ctx.Done()
	select { // want `select has no default, and its Done\(\) case is on a context derived from context.Background\(\)`
	case <-ch:
	case <-done:
	}
	<-ctx.Done() // want `^channel receive waits on the Done\(\) of a context derived from context.Background\(\), which the request cannot cancel`
}

// Request: the request's context, a timeout derived from it, and a Done
// variable are escapes.
func Request(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), time.Second)
	defer cancel()
	select {
	case <-ch:
	case <-ctx.Done():
	}
	select {
	case <-ch:
	case <-r.Context().Done():
	}
	done := r.Context().Done()
	select {
	case <-ch:
	case <-done:
	}
	<-ctx.Done()
}

// Unknown: fields, a non-context Done and a helper's parameter are escapes
// (no new false positives).
func (wk *worker) Unknown(w http.ResponseWriter, r *http.Request) {
	select {
	case <-ch:
	case <-wk.ctx.Done():
	}
	select {
	case <-ch:
	case <-wk.stop.Done():
	}
	wait(wk.ctx)
}

func wait(ctx context.Context) { // want wait:`^opaque$`
	select {
	case <-ch:
	case <-ctx.Done():
	}
}

// Mixed: a request Done case next to a Background one is an escape.
func Mixed(w http.ResponseWriter, r *http.Request) {
	select {
	case <-ch:
	case <-context.Background().Done():
	case <-r.Context().Done():
	}
}
