// Package wide reaches more distinct SIO001 operations than a fact names:
// seventeen database queries, then one http.Get. The fact keeps the remote
// call first, names maxOps (16) operations and counts the other two.
package wide

import (
	"database/sql"
	"net/http"
)

var db *sql.DB

// Wide is the shape that hid a remote call behind a cap of four database
// calls: its http.Get comes last.
func Wide() { // want Wide:`^blocks\(SIO001: net/http.Get\) \+ blocks\(SIO001: database/sql.\(\*DB\).Query\)( \+ blocks\(SIO001: database/sql.\(\*DB\).Query\)){2}( \+ op\(SIO001: database/sql.\(\*DB\).Query\)){11} \+ op\(SIO001: database/sql.\(\*DB\).Query\) \+2$`
	_, _ = db.Query("SELECT 0")
	_, _ = db.Query("SELECT 1")
	_, _ = db.Query("SELECT 2")
	_, _ = db.Query("SELECT 3")
	_, _ = db.Query("SELECT 4")
	_, _ = db.Query("SELECT 5")
	_, _ = db.Query("SELECT 6")
	_, _ = db.Query("SELECT 7")
	_, _ = db.Query("SELECT 8")
	_, _ = db.Query("SELECT 9")
	_, _ = db.Query("SELECT 10")
	_, _ = db.Query("SELECT 11")
	_, _ = db.Query("SELECT 12")
	_, _ = db.Query("SELECT 13")
	_, _ = db.Query("SELECT 14")
	_, _ = db.Query("SELECT 15")
	_, _ = db.Query("SELECT 16")
	_, _ = http.Get("http://other.service/")
}
