// Package server is a minimal stand-in for
// github.com/cloudwego/hertz/pkg/app/server.
package server

import "github.com/cloudwego/hertz/pkg/route"

// Hertz embeds the route engine, as hertz's does.
type Hertz struct{ *route.Engine }

func Default() *Hertz { return &Hertz{Engine: &route.Engine{}} }
