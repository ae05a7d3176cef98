// Package extraroutes hands handlers to the routers' calls that register
// no verb route: chi's Mount, NotFound and MethodNotAllowed, gin's and
// hertz's NoRoute and NoMethod, echo's RouteNotFound and fiber's Use. Each
// goes through a registrar of the program's own with handlers of no
// handler shape, as a service's own handler type would be: only the
// registration call makes them roots.
package extraroutes

import (
	"context"
	"net/http"
	"time"

	"github.com/cloudwego/hertz/pkg/app"
	"github.com/cloudwego/hertz/pkg/app/server"
	"github.com/gin-gonic/gin"
	"github.com/go-chi/chi/v5"
	fiber2 "github.com/gofiber/fiber/v2"
	fiber3 "github.com/gofiber/fiber/v3"
	"github.com/labstack/echo/v4"
)

// view is the service's handler type: it returns its error.
type view func(w http.ResponseWriter, r *http.Request) error

func chiRouter(r chi.Router, legacy, notFound, notAllowed view) { // want chiRouter:`^registrar\(1,2,3\) chi$` chiRouter:`^calls\(2\)$` chiRouter:`^dyn\(r.Mount\) \+ dyn\(r.NotFound\) \+ dyn\(r.MethodNotAllowed\)$`
	r.Mount("/legacy", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if legacy(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	}))
	r.NotFound(func(w http.ResponseWriter, req *http.Request) {
		if notFound(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
		if notAllowed(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	})
}

func chiMux(m *chi.Mux, legacy, notFound, notAllowed view) { // want chiMux:`^registrar\(1,2,3\) chi$`
	m.Mount("/legacy", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if legacy(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	}))
	m.NotFound(func(w http.ResponseWriter, req *http.Request) {
		if notFound(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	})
	m.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
		if notAllowed(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	})
}

func legacyPage(w http.ResponseWriter, r *http.Request) error {
	_, err := http.Get("http://legacy.internal/") // want `^net/http.Get blocks`
	return err
}

func missingPage(w http.ResponseWriter, r *http.Request) error {
	time.Sleep(time.Second) // want `^time.Sleep waits`
	return nil
}

func wrongMethod(w http.ResponseWriter, r *http.Request) error {
	_, err := http.Head("http://methods.internal/") // want `^net/http.Head blocks`
	return err
}

func muxLegacy(w http.ResponseWriter, r *http.Request) error {
	_, err := http.Get("http://mux-legacy.internal/") // want `^net/http.Get blocks`
	return err
}

func muxMissing(w http.ResponseWriter, r *http.Request) error {
	time.Sleep(2 * time.Second) // want `^time.Sleep waits`
	return nil
}

func muxWrongMethod(w http.ResponseWriter, r *http.Request) error {
	_, err := http.Head("http://mux-methods.internal/") // want `^net/http.Head blocks`
	return err
}

// files serves a mounted tree: a type with ServeHTTP, a root by its
// method's signature, which Mount's registration resolves to.
type files struct{}

func (files) ServeHTTP(w http.ResponseWriter, r *http.Request) {}

// api builds a sub-router whose own registration calls find its routes.
func api() *chi.Mux {
	m := chi.NewRouter()
	m.Get("/status", func(w http.ResponseWriter, r *http.Request) {})
	return m
}

type site struct{ admin chi.Router }

// Chi mounts sub-routers (returned, and kept in a field) and another
// http.Handler: the sub-routers are no handlers, and none is unresolved.
func Chi(s *site) { // want Chi:`^dyn\(extraroutes.chiRouter → r.Mount\) \+ dyn\(extraroutes.chiRouter → r.NotFound\) \+ dyn\(extraroutes.chiRouter → r.MethodNotAllowed\)$`
	r := chi.NewRouter()
	chiRouter(r, legacyPage, missingPage, wrongMethod)
	chiMux(r, muxLegacy, muxMissing, muxWrongMethod)
	r.Mount("/api", api())
	r.Mount("/admin", s.admin)
	r.Mount("/files", files{})
}

// ginAction is a gin handler that returns its error.
type ginAction func(c *gin.Context) error

func ginFallbacks(e *gin.Engine, noRoute, noMethod ginAction) { // want ginFallbacks:`^registrar\(1,2\) gin$`
	e.NoRoute(func(c *gin.Context) { _ = noRoute(c) })
	e.NoMethod(func(c *gin.Context) { _ = noMethod(c) })
}

func ginMissing(c *gin.Context) error {
	_, err := http.Get("http://gin-missing.internal/") // want `^net/http.Get blocks`
	return err
}

func ginWrongMethod(c *gin.Context) error {
	time.Sleep(time.Second) // want `^time.Sleep waits`
	return nil
}

// hertzAction is a hertz handler that returns its error.
type hertzAction func(ctx context.Context, c *app.RequestContext) error

func hertzFallbacks(h *server.Hertz, noRoute, noMethod hertzAction) { // want hertzFallbacks:`^registrar\(1,2\) hertz$`
	h.NoRoute(func(ctx context.Context, c *app.RequestContext) { _ = noRoute(ctx, c) })
	h.NoMethod(func(ctx context.Context, c *app.RequestContext) { _ = noMethod(ctx, c) })
}

func hertzMissing(ctx context.Context, c *app.RequestContext) error {
	_, err := http.Get("http://hertz-missing.internal/") // want `^net/http.Get blocks`
	return err
}

func hertzWrongMethod(ctx context.Context, c *app.RequestContext) error {
	time.Sleep(time.Second) // want `^time.Sleep waits`
	return nil
}

// echoAction is an echo handler that also takes the user.
type echoAction func(c echo.Context, user string) error

func echoNotFound(e *echo.Echo, a echoAction) { // want echoNotFound:`^registrar\(1\) echo$`
	e.RouteNotFound("/*", func(c echo.Context) error { return a(c, "anonymous") })
}

func echoMissing(c echo.Context, user string) error {
	_, err := http.Get("http://echo-missing.internal/" + user) // want `^net/http.Get blocks`
	return err
}

// fiber2Action and fiber3Action are fiber handlers that take the user.
type (
	fiber2Action func(c *fiber2.Ctx, user string) error
	fiber3Action func(c fiber3.Ctx, user string) error
)

// fiber2Use registers under a prefix and a []string of prefixes: neither
// is a handler, and neither is unresolved.
func fiber2Use(a *fiber2.App, f fiber2Action) { // want fiber2Use:`^registrar\(1\) fiber$`
	a.Use("/api", func(c *fiber2.Ctx) error { return f(c, "anonymous") })
	a.Use([]string{"/a", "/b"}, func(c *fiber2.Ctx) error { return nil })
}

// fiber3Use mounts a sub-app and registers a handler: the sub-app is no
// handler.
func fiber3Use(a *fiber3.App, f fiber3Action) { // want fiber3Use:`^registrar\(1\) fiber$`
	a.Use("/sub", fiber3.New())
	a.Use(func(c fiber3.Ctx) error { return f(c, "anonymous") })
}

// fiber2Group and fiber3Group register through a group and through the
// Router interface that App.Group returns.
func fiber2Group(g *fiber2.Group, r fiber2.Router, inGroup, inRouter fiber2Action) { // want fiber2Group:`^registrar\(2,3\) fiber$`
	g.Use(func(c *fiber2.Ctx) error { return inGroup(c, "anonymous") })
	r.Use("/r", func(c *fiber2.Ctx) error { return inRouter(c, "anonymous") })
}

func fiber3Group(g *fiber3.Group, r fiber3.Router, inGroup, inRouter fiber3Action) { // want fiber3Group:`^registrar\(2,3\) fiber$`
	g.Use(func(c fiber3.Ctx) error { return inGroup(c, "anonymous") })
	r.Use("/r", func(c fiber3.Ctx) error { return inRouter(c, "anonymous") })
}

func fiber2InGroup(c *fiber2.Ctx, user string) error {
	time.Sleep(time.Second) // want `^time.Sleep waits`
	return nil
}

func fiber2InRouter(c *fiber2.Ctx, user string) error {
	_, err := http.Head("http://fiber2-router.internal/" + user) // want `^net/http.Head blocks`
	return err
}

func fiber3InGroup(c fiber3.Ctx, user string) error {
	_, err := http.Get("http://fiber3-group.internal/" + user) // want `^net/http.Get blocks`
	return err
}

func fiber3InRouter(c fiber3.Ctx, user string) error {
	time.Sleep(time.Second) // want `^time.Sleep waits`
	return nil
}

func fiber2Page(c *fiber2.Ctx, user string) error {
	_, err := http.Get("http://fiber2.internal/" + user) // want `^net/http.Get blocks`
	return err
}

func fiber3Page(c fiber3.Ctx, user string) error {
	time.Sleep(time.Second) // want `^time.Sleep waits`
	return nil
}

// Others wires the other frameworks' registrars.
func Others() {
	ginFallbacks(gin.New(), ginMissing, ginWrongMethod)
	hertzFallbacks(server.Default(), hertzMissing, hertzWrongMethod)
	echoNotFound(echo.New(), echoMissing)
	fiber2Use(fiber2.New(), fiber2Page)
	fiber3Use(fiber3.New(), fiber3Page)
	fiber2Group(&fiber2.Group{}, fiber2.New(), fiber2InGroup, fiber2InRouter)
	fiber3Group(&fiber3.Group{}, fiber3.New(), fiber3InGroup, fiber3InRouter)
}
