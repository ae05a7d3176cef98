package api

import (
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// drainTime bounds how long drainBody reads what a request left of its
// body after the answer went out. It holds the connection and a goroutine,
// never a worker; 5 s moves the largest default upload (32 MiB) at about
// 6.4 MiB/s, which a client on the same network sends, while a slow one
// is cut off instead of holding its connection for its whole body.
const drainTime = 5 * time.Second

// drainBody is the middleware that reads and discards what a request left
// of its body once the handler has answered, so that the client sees the
// answer. Without it a refused upload (503 queue_full or uploads_busy, 400
// before the body was read, 413, …) whose body was still arriving got a
// broken pipe: net/http reads at most 256 KiB of a body its handler left
// unread; past that it stops reading, waits half a second and closes with
// the rest unread, and a client that sends its whole body before reading
// the answer (curl, most libraries) is reset mid-write and never reads the
// 503 and its Retry-After. The answer goes out before the drain, and a body
// drained to its end leaves the connection reusable.
//
// What is drained is bounded: at most Config.MaxUploadBytes (the largest
// body the API accepts) and at most drainTime. Not drained: a 413 (the
// body is past the limit: reading it is what the 413 refuses), bodies
// whose read failed or ended (408 body_timeout, a client gone, read to the
// end), and requests that sent Expect: 100-continue, whose client sends no
// body once it has a final answer.
func (a *app) drainBody(c *gin.Context) {
	req := c.Request
	if req.Body == nil || req.Body == http.NoBody || req.ContentLength == 0 {
		c.Next()
		return
	}
	// The handlers read through a tracker; net/http keeps its own
	// *Request, whose Body it inspects after the handler, unchanged.
	tracked := &readTracker{r: req.Body}
	shallow := *req
	shallow.Body = tracked
	c.Request = &shallow
	c.Next()

	limit := a.cfg.MaxUploadBytes
	left := limit
	if req.ContentLength > 0 {
		left = req.ContentLength - tracked.n
	}
	switch {
	case tracked.ended, left <= 0, left > limit, c.Writer.Status() == http.StatusRequestEntityTooLarge:
		return
	case strings.EqualFold(req.Header.Get("Expect"), "100-continue"):
		return
	}
	// The deadline comes first: flushing a body under 256 KiB unread makes
	// net/http read it before it writes the answer, and that read is
	// bounded by whatever deadline the connection had (ReadTimeout's 2 min).
	if err := http.NewResponseController(c.Writer).SetReadDeadline(time.Now().Add(drainTime)); err != nil {
		return // no deadline, no drain: it could hang on a stalled client
	}
	// Then the answer: a client that reads while it sends has it now,
	// whatever the drain does.
	c.Writer.Flush()
	_, _ = io.CopyN(io.Discard, tracked, left) // any error: net/http closes, as it would have
}

// readTracker counts what a handler read of a body, and whether the body
// ended (its end, or an error, which a further read only repeats).
type readTracker struct {
	r     io.ReadCloser
	n     int64
	ended bool
}

func (t *readTracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.n += int64(n)
	t.ended = t.ended || err != nil
	return n, err
}

func (t *readTracker) Close() error { return t.r.Close() }
