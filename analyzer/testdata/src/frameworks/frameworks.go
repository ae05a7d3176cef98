package frameworks

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	fiber2 "github.com/gofiber/fiber/v2"
	fiber3 "github.com/gofiber/fiber/v3"
	"github.com/labstack/echo/v4"

	"grpcdemo/pb"
)

var db *sql.DB

func GinHandler(c *gin.Context) {
	time.Sleep(time.Second)               // want `time.Sleep waits`
	_, _ = db.QueryContext(c, "SELECT 1") // want `QueryContext is given c \(a \*gin.Context, never cancelled unless the engine sets ContextWithFallback = true\) instead of the request context; pass c.Request.Context\(\) \(SIO002\)`
	cc := c.Copy()
	_, _ = db.QueryContext(cc, "SELECT 1") // want `given cc \(a \*gin.Context`
	_, _ = db.QueryContext(c.Request.Context(), "SELECT 1")
	_, _ = db.QueryContext(context.TODO(), "SELECT 1") // want `QueryContext is given context.TODO\(\)`
}

func EchoHandler(c echo.Context) error {
	_, err := http.Get("http://example.com") // want `net/http.Get blocks`
	_, _ = db.QueryContext(c.Request().Context(), "SELECT 1")
	return err
}

func Fiber2Handler(c *fiber2.Ctx) error {
	_, _ = db.QueryContext(c.UserContext(), "SELECT 1")
	return db.Ping() // want `database/sql.\(\*DB\).Ping blocks`
}

func Fiber3Handler(c fiber3.Ctx) error {
	_, _ = db.QueryContext(c.Context(), "SELECT 1")
	_, _ = db.QueryContext(c, "SELECT 1")            // want `QueryContext is given c \(a fiber.Ctx, which is never cancelled\) instead of the request context; pass c.Context\(\)`
	_, _ = db.ExecContext(context.Background(), "X") // want `ExecContext is given context.Background\(\)`
	return nil
}

func routes() {
	r := gin.New()
	r.GET("/a", func(c *gin.Context) {
		_, _ = http.Get("http://example.com") // want `net/http.Get blocks`
	})
	e := echo.New()
	e.GET("/b", func(c echo.Context) error {
		time.Sleep(time.Second) // want `time.Sleep waits`
		return nil
	})
	f2 := fiber2.New()
	f2.Get("/c", func(c *fiber2.Ctx) error {
		return db.Ping() // want `Ping blocks`
	})
	f3 := fiber3.New()
	f3.Get("/d", func(c fiber3.Ctx) error {
		return db.Ping() // want `Ping blocks`
	})
}

// NotAHandler has a similar shape but is no root: it only exports a fact.
func NotAHandler(c *gin.Context, n int) { time.Sleep(time.Duration(n)) } // want NotAHandler:`blocks\(SIO005: time.Sleep\)`

type Greeter struct {
	pb.UnimplementedGreeterServer
}

func (g *Greeter) SayHello(ctx context.Context, req *pb.HelloRequest) (*pb.HelloReply, error) {
	_, _ = db.QueryContext(ctx, "SELECT 1")
	_, _ = db.QueryContext(context.Background(), "SELECT 1") // want `QueryContext is given context.Background\(\)`
	_ = db.QueryRow("SELECT 1")                              // want `QueryRow blocks`
	return &pb.HelloReply{}, nil
}

// Plain has the gRPC shape but no Unimplemented*Server: not a root.
type Plain struct{}

func (p *Plain) SayHello(ctx context.Context, req *pb.HelloRequest) (*pb.HelloReply, error) { // want SayHello:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
	return nil, nil
}

// loadReport does its own ctx-less I/O, whatever context it is given. It
// reads the context (a callee that never does is no SIO002 at its call:
// prec/idlectx), so the context it is given counts.
func loadReport(ctx context.Context) error { // want loadReport:`blocks\(SIO001: net/http.Get\)`
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := http.Get("http://example.com/report")
	return err
}

// GinPassesC gives c to a helper: the SIO002 at the call does not hide the
// helper's own ctx-less call.
func GinPassesC(c *gin.Context) {
	_ = loadReport(c) // want `loadReport is given c \(a \*gin.Context` `GinPassesC calls frameworks.loadReport → net/http.Get`
}
