// Package table keeps a settings handler's actions in a package map,
// filled by two packages: 200 by first, 60 by second, more than the join
// follows per call (256; each package records at most that many).
package table

import "net/http"

// Actions are the settings actions by name.
var Actions = map[string]func(w http.ResponseWriter){}
