// Package store is a helper that request handlers call: its error
// branches end the process through a wrapper, its other branches block on
// the request path.
package store

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"net/http"
	"os"
)

var DB *sql.DB

// fatal is the service's wrapper: it flushes with context.Background()
// and a plain HTTP call, then exits.
func fatal(err error) { // want fatal:`^exits\(os.Exit\)$`
	_ = DB.PingContext(context.Background())
	_, _ = http.Get("http://errors/flush?e=" + err.Error())
	os.Exit(1)
}

func lookup(id string) (string, error) {
	if id == "" {
		return "", errors.New("no id")
	}
	return id, nil
}

// Session's error branch only ends the process; its other branch blocks
// on the request path.
func Session(id string) string { // want Session:`^blocks\(SIO001: net/http.Get\)$`
	v, err := lookup(id)
	if err != nil {
		fatal(err)
	}
	if v == "guest" {
		_, _ = http.Get("http://sessions/" + id)
	}
	return v
}

// Logged's branch ends in log.Printf, which returns: still a request path.
func Logged(id string) { // want Logged:`^blocks\(SIO002: database/sql.\(\*DB\).PingContext\)$`
	if id == "" {
		_ = DB.PingContext(context.Background())
		log.Printf("empty id")
	}
}

// exitsSometimes ends the process on one of its branches only: a call of
// it is no exit.
func exitsSometimes(err error) {
	if err != nil {
		os.Exit(1)
	}
}

// Partial's branch ends in a call of exitsSometimes, which may return.
func Partial(id string) { // want Partial:`^blocks\(SIO001: net/http.Get\)$`
	if id == "" {
		_, _ = http.Get("http://partial")
		exitsSometimes(nil)
	}
}

// Early's branch may return before its exit.
func Early(id string) { // want Early:`^blocks\(SIO001: net/http.Get\)$`
	if id == "" {
		_, _ = http.Get("http://early")
		if len(id) == 0 {
			return
		}
		os.Exit(1)
	}
}
