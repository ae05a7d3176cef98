package after

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"
)

// Upload takes a request body of any length as long as it keeps coming:
// before each read it moves the connection's read deadline ReadWait
// ahead, so a long, steady upload is not cut by the server's ReadTimeout,
// and a client that stops sending for ReadWait is dropped with 408
// instead of holding the handler. MaxBytes bounds the body, and
// WithDeadline (NewServer) the upload as a whole.
type Upload struct {
	ReadWait time.Duration // Bounds.ReadWait
	MaxBytes int64
	// Store consumes the body: a blob client's streaming upload, a file.
	Store func(ctx context.Context, body io.Reader) (int64, error)
	Log   *slog.Logger
}

// ServeHTTP implements http.Handler.
func (u *Upload) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body := &progressReader{r: http.MaxBytesReader(w, r.Body, u.MaxBytes), rc: http.NewResponseController(w), wait: u.ReadWait}
	n, err := u.Store(r.Context(), body)
	var tooLarge *http.MaxBytesError
	switch {
	case err == nil:
		answer(w, http.StatusOK, map[string]any{"bytes": n})
	case errors.Is(err, os.ErrDeadlineExceeded):
		answer(w, http.StatusRequestTimeout, map[string]any{"error": "the body stopped arriving", "code": "body_timeout"})
	case errors.As(err, &tooLarge):
		answer(w, http.StatusRequestEntityTooLarge, map[string]any{"error": "body too large", "code": "too_large"})
	default:
		u.Log.ErrorContext(r.Context(), "upload failed", "err", err)
		answer(w, http.StatusInternalServerError, map[string]any{"error": "upload failed", "code": "internal"})
	}
}

// progressReader moves the read deadline before each read: the bound is
// on silence, not on the length of the upload.
type progressReader struct {
	r    io.Reader
	rc   *http.ResponseController
	wait time.Duration
}

func (p *progressReader) Read(b []byte) (int, error) {
	if err := p.rc.SetReadDeadline(time.Now().Add(p.wait)); err != nil {
		return 0, err // the writer cannot take a deadline: do not read with no bound
	}
	return p.r.Read(b)
}

func answer(w http.ResponseWriter, status int, body map[string]any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
