package analyzer

import (
	"fmt"
	"sync"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

// defaultBlocking is the SIO001 table: context-less calls that have a
// context-aware variant (noctx's list and the SDK rows whose evidence
// docs/rules/libraries.md gives). It is data, read once from
// internal/knowledge/blocking.txt; DefaultConfig copies it.
var defaultBlocking = sync.OnceValue(func() map[string]Replacement {
	rows, err := knowledge.BuiltinBlocking()
	if err != nil {
		// The file is embedded in the binary, and
		// TestBuiltinBlockingParses keeps a bad row from shipping.
		panic(fmt.Sprintf("syncio: the built-in SIO001 table: %v", err))
	}
	t := make(map[string]Replacement, len(rows))
	for _, r := range rows {
		t[r.Key] = replacementOf(r)
	}
	return t
})

// replacementOf is the Replacement a table row describes.
func replacementOf(r knowledge.Blocking) Replacement {
	return Replacement{Use: r.Use, Verb: r.Verb, Method: r.Method, ExtraArgs: r.ExtraArgs}
}

// httpShortcuts are the net/http calls whose fix rewrites the whole
// `resp, err := …` statement into NewRequestWithContext + Do. The value is
// the http.Method constant to use.
var httpShortcuts = map[string]string{
	"net/http.Get":            "http.MethodGet",
	"net/http.Head":           "http.MethodHead",
	"net/http.Post":           "http.MethodPost",
	"net/http.(*Client).Get":  "http.MethodGet",
	"net/http.(*Client).Head": "http.MethodHead",
	"net/http.(*Client).Post": "http.MethodPost",
}

// waitFuncs are SIO005 calls that wait with no way to be cancelled.
var waitFuncs = map[string]string{
	"time.Sleep":             "wait in a select on ctx.Done() and a time.Timer's channel",
	"sync.(*WaitGroup).Wait": "start the goroutines with errgroup.WithContext(ctx) and pass its context to their I/O, so the work itself stops with the request (waiting for Wait in another goroutine would leave it running)",
	"sync.(*Cond).Wait":      "use a channel and select on it and ctx.Done(); sync.Cond cannot be cancelled",
	// Judged at the call like WaitGroup.Wait, whatever their source says
	// (in a dependency, joins.go judges them by the work they join).
	"golang.org/x/sync/errgroup.(*Group).Wait":   "build the group with errgroup.WithContext(ctx) and have every goroutine return when that context is done",
	"golang.org/x/sync/singleflight.(*Group).Do": "use DoChan and select on its channel and ctx.Done()",
}
