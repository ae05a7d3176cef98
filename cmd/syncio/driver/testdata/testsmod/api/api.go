// Package api serves through svc, a dependency the driver analyses first.
package api

import "example.com/testsmod/svc"

// Serve calls into its dependency.
func Serve() { svc.Handler() }
