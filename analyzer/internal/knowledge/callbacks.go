package knowledge

import (
	"fmt"
	"sync"
)

// builtin returns the embedded tables' rows; the files are embedded in
// the binary and TestBuiltinRowsParse keeps a bad row from shipping, so
// an error here is a broken build.
func builtin() []Row {
	rows, err := BuiltinRows()
	if err != nil {
		panic(fmt.Sprintf("syncio: the built-in call tables: %v", err))
	}
	return rows
}

// StdCallbacks returns the standard library's functions and methods that
// call some of their func parameters (by index) before they return, keyed
// as the SIO001 table is (import path, receiver, name): the callback rows
// of calls.txt. The standard library is not analysed, so its callbacks
// get no fact from their source: a func literal or function value given
// there runs on the caller's path (re.ReplaceAllStringFunc(s, func(m
// string) string { …lookup… })).
var StdCallbacks = sync.OnceValue(func() map[string][]int {
	m := map[string][]int{}
	for _, r := range builtin() {
		if r.Kind == KindCallback {
			m[r.Key] = r.Indexes()
		}
	}
	return m
})

// StdOnce returns the standard library's callbacks that run their
// function once per value, not once per call: the callback rows with
// "runs: once" (sync.(*Once).Do "calls the function f if and only if Do
// is being called for the first time for this instance of Once"). A
// client built there is built once, not per request (SIO004), and a wait
// there is the first caller's only (SIO005). sync.OnceFunc, OnceValue and
// OnceValues return a function that calls f later, so f is no callback
// here. singleflight's Do is not listed: it shares one call among the
// callers that overlap it, and the next request runs the function again.
var StdOnce = sync.OnceValue(func() map[string][]int {
	m := map[string][]int{}
	for _, r := range builtin() {
		if r.Kind == KindCallback && r.Runs == RunsOnce {
			m[r.Key] = r.Indexes()
		}
	}
	return m
})

// GoStarters returns the calls that run their function arguments in new
// goroutines (the go rows: errgroup's Go and TryGo, the worker pools'
// Submit and Go), as a set of keys.
var GoStarters = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, r := range builtin() {
		if r.Kind == KindGo {
			m[r.Key] = true
		}
	}
	return m
})

// ZeroServers returns the calls that serve HTTP with a server whose
// timeouts are all zero (the serve rows), by key: the receiver's field
// they serve (Row.Serves), or "" for a server built inside the call.
var ZeroServers = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range builtin() {
		if r.Kind == KindServe {
			m[r.Key] = r.Serves
		}
	}
	return m
})

// JoinWaits returns the SIO005 waits judged by the work they join (the
// wait rows with a joins field), by key: true when the work is the
// goroutines the function starts (joins: goroutines; go statements and
// GoStarters' calls), false when it is the call's own function arguments
// (joins: arguments; singleflight's Do).
var JoinWaits = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, r := range builtin() {
		if r.Kind == KindWait && r.Joins != "" {
			m[r.Key] = r.Joins == JoinsGoroutines
		}
	}
	return m
})
