// Package dep reaches several SIO001 operations: the fact keeps up to four
// distinct ones per rule, across packages.
package dep

import (
	"database/sql"
	"net"
	"net/http"
	"time"

	"prec/terminals/store"
)

var db *sql.DB

// Load queries the database, then calls http.Get: two terminals.
func Load(url string) error { // want Load:`^blocks\(SIO001: database/sql.\(\*DB\).Query\) \+ blocks\(SIO001: net/http.Get\)$`
	if _, err := db.Query("SELECT 1"); err != nil {
		return err
	}
	_, err := http.Get(url)
	return err
}

// get is reached twice: one terminal.
func get() { _, _ = http.Get("http://x") } // want get:`^blocks\(SIO001: net/http.Get\)$`

func Twice() { // want Twice:`^blocks\(SIO001: dep.get → net/http.Get\)$`
	get()
	get()
}

// Many reaches six terminals of SIO001 (two through store) and one of
// SIO005: the fact keeps the first four of SIO001.
func Many() { // want Many:`^blocks\(SIO001: dep.Load → database/sql.\(\*DB\).Query\) \+ blocks\(SIO001: dep.Load → net/http.Get\) \+ blocks\(SIO001: store.Both → database/sql.\(\*DB\).Query\) \+ blocks\(SIO001: store.Both → net.Dial\) \+ blocks\(SIO005: time.Sleep\)$`
	_ = Load("http://x")
	store.Both()
	time.Sleep(time.Millisecond)
	_, _ = net.LookupHost("x")
	_ = db.Ping()
}
