// Package configured sets the timeouts of echo's server before Start.
package configured

import (
	"time"

	"github.com/labstack/echo/v4"
)

func Serve() error {
	e := echo.New()
	e.Server.ReadHeaderTimeout = 10 * time.Second
	e.Server.IdleTimeout = 2 * time.Minute
	return e.Start(":8080")
}

// ServeTLS is clean too: the package's stores are tied to no one server,
// so they clear every server it starts (the rule errs to silence).
func ServeTLS() error {
	e := echo.New()
	return e.StartTLS(":8443", "cert.pem", "key.pem")
}
