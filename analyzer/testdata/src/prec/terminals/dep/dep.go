// Package dep reaches several SIO001 operations: the fact keeps up to four
// distinct ones per rule with their paths, across packages, remote calls
// before database calls, and names the others by operation and site.
package dep

import (
	"database/sql"
	"net"
	"net/http"
	"time"

	"prec/terminals/store"
)

var db *sql.DB

// Load queries the database, then calls http.Get: two terminals, the
// remote call first.
func Load(url string) error { // want Load:`^blocks\(SIO001: net/http.Get\) \+ blocks\(SIO001: database/sql.\(\*DB\).Query\)$`
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
// SIO005: the fact keeps four of SIO001 with their paths, the three
// remote ones first (in the order found), and names the other two.
func Many() { // want Many:`^blocks\(SIO001: dep.Load → net/http.Get\) \+ blocks\(SIO001: store.Both → net.Dial\) \+ blocks\(SIO001: net.LookupHost\) \+ blocks\(SIO001: dep.Load → database/sql.\(\*DB\).Query\) \+ op\(SIO001: database/sql.\(\*DB\).Query\) \+ op\(SIO001: database/sql.\(\*DB\).Ping\) \+ blocks\(SIO005: time.Sleep\)$`
	_ = Load("http://x")
	store.Both()
	time.Sleep(time.Millisecond)
	_, _ = net.LookupHost("x")
	_ = db.Ping()
}
