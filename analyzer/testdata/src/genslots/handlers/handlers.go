// Package handlers holds a route handler that app stores into
// router.Route[T].Action: this package cannot know it serves requests,
// so it is a root at app's store, with its fact.
package handlers

import (
	"net/http"

	"genslots/router"
)

func Export(e *router.Event) error {
	_, err := http.Get("http://export")
	return err
}
