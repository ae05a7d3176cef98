package after

import (
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/gin-gonic/gin"
)

// NewEngine builds the gin engine with ContextWithFallback on, so that c
// used as a context.Context (by a library that takes c, or by mistake)
// reads c.Request.Context(): its Done, Err, Deadline and values. Handlers
// still pass c.Request.Context() explicitly, which works either way.
func NewEngine(p *Proxy) *gin.Engine {
	e := gin.New()
	e.ContextWithFallback = true
	e.Use(gin.Recovery())
	e.GET("/profiles/:id", p.Profile)
	return e
}

// NewServer serves a gin engine with the server-side bounds that gin does
// not set: gin's own Run is http.ListenAndServe, with no timeout at all.
func NewServer(addr string, e *gin.Engine) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           e,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second, // a client that stops sending a body halfway
		WriteTimeout:      15 * time.Second,
		IdleTimeout:       60 * time.Second,
	}
}

// NewDebugServer serves net/http/pprof on its own listener (give it a
// loopback address), away from the gin engine and the public port.
func NewDebugServer(addr string) *http.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index) // goroutine, block, mutex, heap, ... by name
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 120 * time.Second}
}
