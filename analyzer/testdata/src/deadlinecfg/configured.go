package deadlinecfg

import (
	"net/http"
	"time"
)

// Servers configured after construction, in the same function and in
// another one, are clean: the package stores the fields.
func configuredHere() *http.Server {
	srv := &http.Server{Handler: mux}
	srv.ReadHeaderTimeout = 10 * time.Second
	return srv
}

func configuredElsewhere() *http.Server {
	srv := &http.Server{Handler: mux}
	withIdle(srv)
	return srv
}

func withIdle(s *http.Server) { s.IdleTimeout = 2 * time.Minute }

var mux = http.NewServeMux()

// The stores above are to fields of no one value the rule can tie them
// to, so they clear every server of the package: it errs to silence.
func clearedByTheStores() *http.Server {
	return &http.Server{Handler: mux}
}
