package after

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// TestPanicUnderLock: what a panic inside a narrowed critical section
// leaves behind once the server has recovered it (net/http recovers a
// handler's panic and serves on). The section here writes to a nil map,
// the commonest such panic. As an inline Lock … Unlock pair, the Unlock
// never runs and the mutex stays held: every later request would hang on
// Lock. As a function with a deferred Unlock (lookup and keep in
// cache.go), the mutex is free again.
func TestPanicUnderLock(t *testing.T) {
	var nilMap map[string][]byte
	section := func() { nilMap["k"] = nil }

	serveRecovered := func(h http.HandlerFunc) {
		srv := httptest.NewUnstartedServer(h) // net/http's own recovery
		srv.Config.ErrorLog = log.New(io.Discard, "", 0)
		srv.Start()
		defer srv.Close()
		resp, err := http.Get(srv.URL)
		if err == nil {
			resp.Body.Close()
		}
	}

	var inline sync.Mutex
	serveRecovered(func(http.ResponseWriter, *http.Request) {
		inline.Lock()
		section()
		inline.Unlock()
	})
	if inline.TryLock() {
		t.Error("inline pair: the mutex is free after the panic; the test no longer shows the hazard")
	}

	var deferred sync.Mutex
	serveRecovered(func(http.ResponseWriter, *http.Request) {
		func() {
			deferred.Lock()
			defer deferred.Unlock()
			section()
		}()
	})
	if !deferred.TryLock() {
		t.Error("deferred Unlock: the mutex is still held after the panic")
	}
}
