// Package report ends the process the way services do: it flushes an
// error reporter, with context.Background() and a plain HTTP call, and
// then exits.
package report

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"os"
)

var DB *sql.DB

// Fatal ends the process: what it blocks on is no request's.
func Fatal(err error) { // want Fatal:`^exits\(os.Exit\)$`
	_ = DB.PingContext(context.Background())
	_, _ = http.Get("http://errors/flush?e=" + err.Error())
	os.Exit(1)
}

// Fatalf ends in a call of Fatal, so it ends the process too.
func Fatalf(format string, args ...any) { // want Fatalf:`^exits\(exits/report.Fatal\)$`
	Fatal(fmt.Errorf(format, args...))
}
