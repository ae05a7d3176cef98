// want package:`rootslots\(1\)` package:`pending\(1\)` package:`joined\(256\)`
// Package app is a settings handler that picks one of many actions from
// the package map that two packages below fill with 260: more than the
// join follows per call, so the roots report names the call as followed
// in part.
package app

import (
	"net/http"

	_ "manyactions/first"
	_ "manyactions/second"
	"manyactions/table"
)

// Settings runs the action the form names.
func Settings(w http.ResponseWriter, r *http.Request) {
	table.Actions[r.FormValue("a")](w) // want `first.a3 → time.Sleep at first.go:\d+:\d+, and 252 more`
}
