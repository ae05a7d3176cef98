package main

import (
	"net/http"
	"time"
)

// Suppressed shows every form of //syncio:ignore.
func Suppressed(w http.ResponseWriter, r *http.Request) {
	//syncio:ignore SIO005 -- backoff in a demo, bounded to 1ms
	time.Sleep(time.Millisecond)
	time.Sleep(time.Millisecond) //syncio:ignore SIO005 -- same line form
	//syncio:ignore SIO001 -- wrong rule does not hide a SIO005 // want `^stale syncio:ignore: no SIO001 finding here to suppress; remove it \(SIO001\)$`
	time.Sleep(time.Millisecond) // want `time.Sleep waits`
	//syncio:ignore SIO005,SIO001 -- both rules
	_ = fetch("x")
	//syncio:ignore SIO001 // want `^syncio:ignore needs a reason; write //syncio:ignore SIO001 -- why this is safe \(SIO001\)$`
	_ = fetch("y")
	//syncio:ignore SIO999 -- no such rule // want `unknown rule SIO999; .*\(SIO000\)$`
	_ = fetch("z") // want `calls main.fetch`
}

// WholeFunc is suppressed by its doc comment.
//
//syncio:ignore SIO001,SIO005 -- this handler is a documented slow endpoint
func WholeFunc(w http.ResponseWriter, r *http.Request) {
	_ = fetch("x")
	time.Sleep(time.Millisecond)
}

// Custom is a root only because of its marker.
//
//syncio:handler
func Custom(n int) {
	time.Sleep(time.Duration(n)) // want `time.Sleep waits`
}

// quietHelper's suppression makes it non-blocking for its callers.
func quietHelper() { // want quietHelper:`^io\(time.Sleep\)$`
	time.Sleep(time.Millisecond) //syncio:ignore SIO005 -- measured, 1ms
}

func UsesQuiet(w http.ResponseWriter, r *http.Request) { quietHelper() }

// Routes registers a slow handler literal; the doc comment's ignore covers
// the literals inside the function too.
//
//syncio:ignore SIO005 -- demo endpoint that sleeps on purpose
func Routes(mux *http.ServeMux) {
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Second)
	})
}

var global = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	time.Sleep(time.Second) // want `time.Sleep waits`
})
