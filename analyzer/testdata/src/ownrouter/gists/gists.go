// Package gists holds handlers of the service's own shape; nothing here
// says they serve requests: only the router package, which imports this
// one, registers them.
package gists

import (
	"database/sql"
	"net/http"

	"ownrouter/web"
)

var DB *sql.DB

func List(c *web.Context) error { // want List:`blocks\(SIO001: net/http.Get\)`
	resp, err := http.Get("http://search.internal/gists")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Create(c *web.Context) error { // want Create:`blocks\(SIO001: database/sql.\(\*DB\).Exec\)`
	_, err := DB.Exec("INSERT INTO gists DEFAULT VALUES")
	return err
}
