// Package web is the service's request context, which embeds echo's.
package web

import "github.com/labstack/echo/v4"

type Context struct{ echo.Context }
