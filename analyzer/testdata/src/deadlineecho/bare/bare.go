// Package bare starts echo with the server echo.New built, which has no
// timeouts.
package bare

import "github.com/labstack/echo/v4"

func Serve() error {
	e := echo.New()
	return e.Start(":8080") // want `^echo.\(\*Echo\).Start serves its Server, which has no ReadHeaderTimeout and no IdleTimeout \(nor ReadTimeout\)`
}
