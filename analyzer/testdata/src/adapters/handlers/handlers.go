// Package handlers is registered through an adapter by another package.
package handlers

import (
	"net/http"

	"adapters/mw"
)

func List(d mw.Deps, c *mw.Ctx) { // want List:`blocks\(SIO001: net/http.Get\)`
	_, _ = http.Get("http://upstream/list")
}
