// Package svc compiles; its test file does not.
package svc

func block() {}

// Handler blocks.
func Handler() { block() } // finding
