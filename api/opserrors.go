package api

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// Codes of the operational routes' errors (/metrics, /debug/*), which
// come from handlers the API does not write: net/http/pprof, promhttp and
// the blocking watcher.
const (
	codeInvalidQuery = "invalid_query"
	codeDebugFailed  = "debug_failed"
)

// jsonErrors adapts a handler the API does not write, whose errors are
// text (pprof's "Unknown profile", promhttp's gathering errors) or JSON of
// another shape (the blocking watcher's), to the API's JSON error body:
// an error status it writes is kept, its body replaced. The message is
// ours, never the handler's text, which for a 5xx may carry an internal
// error: that text goes to the server log. Anything else passes through
// as written, streamed profiles included.
func (a *app) jsonErrors(h http.Handler) gin.HandlerFunc {
	return func(c *gin.Context) {
		w := &errorCapture{ResponseWriter: c.Writer}
		h.ServeHTTP(w, c.Request)
		switch {
		case w.status == 0:
		case w.status == http.StatusNotFound:
			abortOps(c, w.status, codeNotFound, "no such profile or debug route")
		case w.status < http.StatusInternalServerError:
			abortOps(c, w.status, codeInvalidQuery, "the debug route refused the request: check its query parameters (pprof's seconds and debug, the blocking report's format)")
		default:
			a.log.Warn("debug route failed", "route", c.FullPath(), "status", w.status,
				"request_id", c.GetString(requestIDKey), "reason", strings.TrimSpace(w.text.String()))
			abortOps(c, w.status, codeDebugFailed, "the debug route failed (a CPU profile or trace already running, or metrics that could not be gathered); the server log has its reason")
		}
	}
}

// abortOps answers like abortError, without the content headers the
// handler set for the body it no longer sends.
func abortOps(c *gin.Context, status int, code, msg string) {
	for _, k := range []string{"Content-Type", "Content-Length", "Content-Encoding", "Content-Disposition", "X-Go-Pprof"} {
		c.Writer.Header().Del(k)
	}
	abortError(c, status, code, msg)
}

// errorCapture holds back an error status (400 and up) and the body
// written after it, for jsonErrors to answer instead.
type errorCapture struct {
	http.ResponseWriter
	status  int             // the error status held back, or 0
	text    strings.Builder // the start of the body written after it
	started bool
}

// errorTextMax bounds what errorCapture keeps of an error's body for the
// log: a reason is a line or two.
const errorTextMax = 1 << 10

func (w *errorCapture) WriteHeader(code int) {
	if code >= http.StatusBadRequest && !w.started {
		w.status = code
		return
	}
	w.started = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *errorCapture) Write(p []byte) (int, error) {
	if w.status != 0 { // the handler's error text: kept for the log, replaced in the answer
		w.text.Write(p[:min(len(p), max(errorTextMax-w.text.Len(), 0))])
		return len(p), nil
	}
	w.started = true
	return w.ResponseWriter.Write(p)
}

func (w *errorCapture) Flush() {
	if w.status == 0 {
		if f, ok := w.ResponseWriter.(http.Flusher); ok {
			w.started = true
			f.Flush()
		}
	}
}

// Unwrap lets http.ResponseController reach the connection: pprof sets
// its write deadline through it for long profiles.
func (w *errorCapture) Unwrap() http.ResponseWriter { return w.ResponseWriter }
