// Package usesbad imports a package with type errors.
package usesbad

import "example.com/mod/bad"

func block() {}

// Handler would be flagged, but its dependency failed.
func Handler() int {
	block()
	return bad.Value
}
