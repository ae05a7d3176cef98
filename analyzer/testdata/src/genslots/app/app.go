// Package app stores functions into the generic slots of router and
// queue: the first package that sees both the calls and the stores.
package app

import (
	"net/http"
	"os/exec"
	"time"

	"genslots/handlers"
	"genslots/queue"
	"genslots/router"
)

// settingsSet is stored into router.Route[T].Action, which the root in
// router's BuildMux calls: it is a request root itself, reported at its
// own call, not at the router's.
func settingsSet(e *router.Event) error {
	return exec.Command("true").Run() // reports: `^os/exec.Command starts a process the request cannot cancel.*\(SIO001\)$`
}

func Register(r *router.Router[*router.Event]) {
	r.GET("/api/settings", settingsSet)
	r.GET("/api/export", handlers.Export) // reports: `^Register calls handlers.Export → net/http.Get, which blocks without the request context.*\(SIO001\)$`
	r.GET("/api/health", func(e *router.Event) error {
		time.Sleep(time.Second) // reports: `^time.Sleep waits with no way to cancel it.*\(SIO005\)$`
		return nil
	})
}

var (
	Requests = &queue.Queue[string]{}
	Shutdown = &queue.Queue[int]{}
)

func Wire() {
	Requests.Add(func(path string) error {
		_, err := http.Get("http://audit" + path)
		return err
	})
	// Shutdown's task sleeps: it must not reach a request's call through
	// Task[string].Do.
	Shutdown.Add(func(code int) error { time.Sleep(time.Second); return nil })
}

// Serve calls through an instance's field, Task[string].Do: only the
// functions of that type stored there are followed (the audit call, not
// the shutdown sleep).
func Serve(w http.ResponseWriter, r *http.Request) {
	for _, t := range Requests.Tasks() {
		_ = t.Do(r.URL.Path) // reports: `^Serve calls t.Do \(via the func stored in queue.Task\[T\].Do by app.Wire\) → func literal at app.go:37 → net/http.Get, which blocks without the request context.*\(SIO001\)$`
	}
}
