package api

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/pprof"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/syncio/syncio/api/pool"
	"github.com/syncio/syncio/blockwatch/ginwatch"
)

// ginMode is set once: gin keeps its mode in a package global, and writing
// it per Server would race when several servers start in one process.
var ginMode sync.Once

// newEngine is a gin engine whose unknown routes and methods answer JSON.
func newEngine() *gin.Engine {
	ginMode.Do(func() { gin.SetMode(gin.ReleaseMode) })
	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.NoRoute(func(c *gin.Context) { abortError(c, http.StatusNotFound, codeNotFound, "no such route") })
	r.NoMethod(func(c *gin.Context) {
		abortError(c, http.StatusMethodNotAllowed, codeMethodNotAllowed, "method not allowed")
	})
	return r
}

// newRouter wires middleware and routes. Operational endpoints (/healthz,
// /readyz, /metrics, pprof) bypass the pool so they answer under overload.
// With ops false, /metrics and /debug/* are left to newOpsRouter's
// listener (Config.DebugAddr).
func (a *app) newRouter(reg *prometheus.Registry, enablePprof, ops bool) *gin.Engine {
	r := newEngine()
	// drainBody runs outside observe: the time it reads a refused body is not
	// the request's latency, the answer having gone out before it.
	r.Use(requestID, a.handlers.track, a.drainBody, a.observe(reg), a.recoverJSON)
	if a.conns != nil {
		r.Use(a.conns.guard) // after observe, which counts its 503s
	}
	if a.watcher != nil {
		r.Use(ginwatch.Middleware())
	}

	r.GET("/healthz", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"status": "ok"}) })
	r.GET("/readyz", a.ready)
	if ops {
		a.mountOps(r, reg, enablePprof)
	}

	// No route holds a worker while its body arrives: a client sending
	// slowly would hold it for -body-timeout, and a hundred of them every
	// /api route. The order routes and the sync upload read their body
	// first, then ask for a worker (readOrder and readSyncUpload run ahead
	// of admit); the async upload gives its worker back before reading.
	// TestSlowBodyHoldsNoWorker checks every route with a body.
	api := r.Group("/api")
	g := api.Group("", a.admit)
	g.GET("/sync/profile", a.syncProfile)
	g.GET("/async/profile", a.asyncProfile)
	g.GET("/wrapped/profile", a.wrappedProfile)
	g.POST("/async/upload", a.asyncUpload)
	g.GET("/orders/:id", a.orderStatus)
	g.GET("/blobs/*name", a.getBlob)
	api.POST("/sync/upload", a.readSyncUpload, a.admit, a.syncUpload)
	api.POST("/sync/order", a.readOrder, a.admit, a.syncOrder)
	api.POST("/async/order", a.readOrder, a.admit, a.asyncOrder)
	return r
}

// newOpsRouter serves only /metrics and /debug/*, for Config.DebugAddr.
func (a *app) newOpsRouter(reg *prometheus.Registry, enablePprof bool) *gin.Engine {
	r := newEngine()
	r.Use(requestID, a.recoverJSON)
	a.mountOps(r, reg, enablePprof)
	return r
}

// mountOps adds /metrics, the blocking watcher's report and pprof. Their
// handlers are not ours; a.jsonErrors gives their errors the API's JSON body.
func (a *app) mountOps(r gin.IRoutes, reg *prometheus.Registry, enablePprof bool) {
	if a.watcher != nil {
		r.GET("/debug/syncio/blocking", a.jsonErrors(a.watcher))
	}
	r.GET("/metrics", a.jsonErrors(promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})))
	if enablePprof {
		r.GET("/debug/pprof/*name", a.jsonErrors(http.HandlerFunc(pprofIndex)))
	}
}

// pprofIndex dispatches /debug/pprof/<name> to net/http/pprof.
func pprofIndex(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/debug/pprof/cmdline":
		pprof.Cmdline(w, r)
	case "/debug/pprof/profile":
		pprof.Profile(w, r)
	case "/debug/pprof/symbol":
		pprof.Symbol(w, r)
	case "/debug/pprof/trace":
		pprof.Trace(w, r)
	default:
		pprof.Index(w, r)
	}
}

// admit holds a pool worker for the rest of the request. A full queue is
// answered at once; a request whose client left while queued never runs.
func (a *app) admit(c *gin.Context) {
	err := a.pool.Acquire(c.Request.Context())
	switch {
	case err == nil:
	case errors.Is(err, pool.ErrQueueFull):
		c.Header("Retry-After", "1")
		abortError(c, http.StatusServiceUnavailable, codeQueueFull, "server busy: admission queue full, retry later")
		return
	default:
		abortError(c, statusClientClosed, codeClientClosed, "client closed the request while queued")
		return
	}
	// Deferred so a panicking handler still gives its worker back.
	defer a.pool.Release()
	// The request's labels say it holds a worker until it gives it back
	// (pool.WithYield drops the label while Await or Offload wait).
	release := ginwatch.Hold(c, workerResource)
	defer release()
	c.Next()
}

// recoverJSON turns a handler panic into a 500 JSON response and keeps the
// server up. http.ErrAbortHandler keeps its meaning (abort the connection).
func (a *app) recoverJSON(c *gin.Context) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if v == http.ErrAbortHandler { //nolint:errorlint // sentinel compared by identity, as net/http does
			panic(v)
		}
		a.log.Error("handler panic", "route", c.FullPath(), "request_id", c.GetString(requestIDKey), "panic", fmt.Sprint(v))
		if !c.Writer.Written() {
			abortError(c, http.StatusInternalServerError, codeInternal, "internal error")
		} else {
			c.Abort()
		}
	}()
	c.Next()
}

// observe records syncio_http_request_duration_seconds by route and status,
// and logs server errors with the request ID the client was given. This log
// line is the only place an upstream error's text goes.
func (a *app) observe(reg *prometheus.Registry) gin.HandlerFunc {
	hist := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "syncio_http_request_duration_seconds",
		Help:    "Time from request arrival to response, including admission queueing.",
		Buckets: prometheus.ExponentialBuckets(0.001, 2, 18),
	}, []string{"route", "status"})
	reg.MustRegister(hist)
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = "unmatched" // bounded label cardinality for unknown paths
		}
		status := c.Writer.Status()
		hist.WithLabelValues(route, strconv.Itoa(status)).Observe(time.Since(start).Seconds())
		// Overload 503s are expected and counted, not logged; a request
		// that recorded an error (an upstream failure, readiness) is.
		if len(c.Errors) > 0 || status >= 500 && status != http.StatusServiceUnavailable {
			a.log.Warn("request failed", "route", route, "status", status, "request_id", c.GetString(requestIDKey),
				"duration", time.Since(start), "errors", c.Errors.String())
		}
	}
}

// ready reports whether the backends a request needs answer: storage, and
// the Temporal frontend when orders run there (without it every async
// order would get 503 temporal_unavailable while the API called itself
// ready). Storage is checked first; each check is bounded (2 s), and the
// body names what is down by its code, never by its address.
func (a *app) ready(c *gin.Context) {
	if err := a.store.ping(c.Request.Context()); err != nil {
		_ = c.Error(err) // logged by observe, redacted
		abortError(c, http.StatusServiceUnavailable, codeStorageDown, "storage unreachable")
		return
	}
	if a.durable != nil {
		if err := a.durable.ping(c.Request.Context()); err != nil {
			_ = c.Error(err)
			abortError(c, http.StatusServiceUnavailable, codeTemporalDown, "Temporal unreachable: orders cannot start")
			return
		}
	}
	c.JSON(http.StatusOK, gin.H{"status": "ready"})
}
