package knowledge

// Import paths of the frameworks whose handlers are request roots, and of
// context, recognised by path and type name and never imported (gRPC's
// and connect-go's are with ServiceOf, routes.go).
const (
	PathHTTP       = "net/http"
	PathContext    = "context"
	PathGin        = "github.com/gin-gonic/gin"
	PathEcho       = "github.com/labstack/echo/v4"
	PathEchoV5     = "github.com/labstack/echo/v5" // func(c *echo.Context) error
	PathFiberV2    = "github.com/gofiber/fiber/v2"
	PathFiberV3    = "github.com/gofiber/fiber/v3"
	PathHTTPRouter = "github.com/julienschmidt/httprouter"
	PathHertzApp   = "github.com/cloudwego/hertz/pkg/app"
)
