// Package echo is a minimal stand-in for github.com/labstack/echo/v4.
package echo

import "net/http"

type Context interface{ Request() *http.Request }

type HandlerFunc func(Context) error

type Echo struct{}

func New() *Echo                               { return &Echo{} }
func (e *Echo) GET(path string, h HandlerFunc) {}
