// Package api holds the handler: its branches that end the process, here
// or through a function of another package, are no request path.
package api

import (
	"context"
	"errors"
	"log"
	"net/http"

	"github.com/sirupsen/logrus"

	"exits/report"
	"exits/store"
)

func Handler(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	_ = store.Session(id) // want `^Handler calls store.Session → net/http.Get, which blocks without the request context`
	store.Logged(id)      // want `^Handler calls store.Logged → database/sql.\(\*DB\).PingContext, which is given context.Background\(\)`
	store.Partial(id)     // want `^Handler calls store.Partial → net/http.Get, which blocks without the request context`
	store.Early(id)       // want `^Handler calls store.Early → net/http.Get, which blocks without the request context`
	if id == "boom" {
		// Ends the process through another package's function.
		_ = report.DB.PingContext(context.Background())
		report.Fatal(errors.New("boom"))
	}
	switch id {
	case "log":
		_, _ = http.Get("http://log")
		log.Fatalf("bad id %q", id)
	case "wrapped":
		_, _ = http.Get("http://wrapped")
		report.Fatalf("bad id %q", id)
	case "logrus":
		// An exit row: logrus's Fatal exits through a func value.
		_, _ = http.Get("http://logrus")
		logrus.WithField("id", id).Fatalf("bad id %q", id)
	}
	if id == "panic" {
		// net/http recovers the panic: the request did wait.
		_, _ = http.Get("http://panic") // want `^net/http.Get blocks without the request context`
		panic("bad id")
	}
}
