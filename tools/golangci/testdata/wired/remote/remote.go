// Package remote binds files.Store to a client of its own; only config
// imports it, so app, which joins, sees it only through config.
package remote

import (
	"io"
	"net/http"

	"example.com/wired/files"
)

type client struct{ base string }

func New(base string) files.Store { return &client{base: base} }

func (c *client) Fetch(key string) (string, error) {
	resp, err := http.Get(c.base + key)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}
