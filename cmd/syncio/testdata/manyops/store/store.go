// Package store reaches six distinct blocking operations without the
// request context: four database calls, a local process, and, last in the
// source, the one remote call.
package store

import (
	"database/sql"
	"net/http"
	"os/exec"
)

var db *sql.DB

// Account loads an account the slow way.
func Account(id string) error {
	_, _ = db.Query("SELECT * FROM users WHERE id = ?", id)
	_, _ = db.Exec("UPDATE users SET seen = 1 WHERE id = ?", id)
	_ = db.Ping()
	_, _ = db.Query("SELECT * FROM tokens WHERE user = ?", id)
	_ = exec.Command("true").Run()
	_, err := http.Get("http://billing.internal/" + id)
	return err
}
