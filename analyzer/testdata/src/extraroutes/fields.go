package extraroutes

import (
	"net/http"
	"time"

	fiber2 "github.com/gofiber/fiber/v2"
	fiber3 "github.com/gofiber/fiber/v3"
	"github.com/gorilla/mux"
	"github.com/julienschmidt/httprouter"
	echo4 "github.com/labstack/echo/v4"
	echo5 "github.com/labstack/echo/v5"
)

// The routers' handler fields, set by assignment or in a composite
// literal: each set is a registration of the value stored.

// notFoundOn sets gorilla's NotFoundHandler to a handler that runs v.
func notFoundOn(r *mux.Router, v view) { // want notFoundOn:`^registrar\(1\) gorilla/mux$`
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if v(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	})
}

// service embeds the router: its fields are set through the embedding.
type service struct{ *mux.Router }

func (a *service) notAllowedOn(v view) { // want notAllowedOn:`^registrar\(0\) gorilla/mux$`
	a.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if v(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	})
}

func routerNotFoundOn(r *httprouter.Router, notFound, notAllowed view) { // want routerNotFoundOn:`^registrar\(1,2\) httprouter$`
	r.NotFound = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if notFound(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	})
	r.MethodNotAllowed = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if notAllowed(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	})
}

func gorillaMissing(w http.ResponseWriter, r *http.Request) error {
	_, err := http.Get("http://gorilla-missing.internal/") // want `^net/http.Get blocks`
	return err
}

func gorillaWrongMethod(w http.ResponseWriter, r *http.Request) error {
	time.Sleep(time.Second) // want `^time.Sleep waits`
	return nil
}

func routerMissing(w http.ResponseWriter, r *http.Request) error {
	_, err := http.Get("http://router-missing.internal/") // want `^net/http.Get blocks`
	return err
}

func routerWrongMethod(w http.ResponseWriter, r *http.Request) error {
	time.Sleep(time.Second) // want `^time.Sleep waits`
	return nil
}

// onPanic has httprouter's PanicHandler shape, which is no handler's.
func onPanic(w http.ResponseWriter, r *http.Request, v interface{}) {
	_, _ = http.Post("http://alerts.internal/", "text/plain", nil) // want `^net/http.Post blocks`
}

// echoError and echo5Error have echo's HTTPErrorHandler shapes.
func echoError(err error, c echo4.Context) {
	_, _ = http.Post("http://errors.internal/v4", "text/plain", nil) // want `^net/http.Post blocks`
}

func echo5Error(c *echo5.Context, err error) {
	time.Sleep(time.Second) // want `^time.Sleep waits`
}

func echo5ConfigError(c *echo5.Context, err error) {
	_, _ = http.Post("http://errors.internal/v5", "text/plain", nil) // want `^net/http.Post blocks`
}

// fiberError and fiber3Error have fiber's ErrorHandler shapes.
func fiberError(c *fiber2.Ctx, err error) error {
	_, err = http.Post("http://errors.internal/fiber2", "text/plain", nil) // want `^net/http.Post blocks`
	return err
}

func fiber3Error(c fiber3.Ctx, err error) error {
	time.Sleep(time.Second) // want `^time.Sleep waits`
	return nil
}

// Fields wires the handler fields; a nil stored is no registration.
func Fields() {
	m := mux.NewRouter()
	notFoundOn(m, gorillaMissing)
	(&service{Router: m}).notAllowedOn(gorillaWrongMethod)
	m.NotFoundHandler = nil

	r := &httprouter.Router{PanicHandler: onPanic}
	routerNotFoundOn(r, routerMissing, routerWrongMethod)

	e := echo4.New()
	e.HTTPErrorHandler = echoError
	e5 := echo5.NewWithConfig(echo5.Config{HTTPErrorHandler: echo5ConfigError})
	e5.HTTPErrorHandler = echo5Error

	_ = fiber2.New(fiber2.Config{ErrorHandler: fiberError})
	_ = fiber3.New(fiber3.Config{ErrorHandler: fiber3Error})
}
