// Package app is a minimal stand-in for github.com/cloudwego/hertz/pkg/app:
// the request context of handlers.
package app

import "context"

type RequestContext struct{}

func (c *RequestContext) Param(key string) string   { return "" }
func (c *RequestContext) String(code int, s string) {}
func (c *RequestContext) JSON(code int, obj any)    {}

type HandlerFunc func(c context.Context, ctx *RequestContext)
