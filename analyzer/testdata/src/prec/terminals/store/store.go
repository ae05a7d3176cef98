// Package store has two SIO001 operations in one function.
package store

import (
	"database/sql"
	"net"
)

var db *sql.DB

// Both queries the database and dials, neither with a context.
func Both() { // want Both:`^blocks\(SIO001: net.Dial\) \+ blocks\(SIO001: database/sql.\(\*DB\).Query\)$`
	_, _ = db.Query("SELECT 1")
	_, _ = net.Dial("tcp", "x:1")
}
