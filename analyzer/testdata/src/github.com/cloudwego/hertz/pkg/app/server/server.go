// Package server is a minimal stand-in for
// github.com/cloudwego/hertz/pkg/app/server.
package server

import "github.com/cloudwego/hertz/pkg/app"

type Hertz struct{}

func Default() *Hertz                                                 { return &Hertz{} }
func (h *Hertz) GET(relativePath string, handlers ...app.HandlerFunc) {}
