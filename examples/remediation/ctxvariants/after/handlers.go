package after

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os/exec"
	"time"
)

// Service holds what the handlers share. Client is built once at start-up
// (see ../../clients/after).
type Service struct {
	DB         *sql.DB
	Client     *http.Client
	ProfileURL string
	// CallTimeout bounds a whole outgoing call, body included (10 s when
	// zero): the request's context ends only when the client hangs up, so
	// without it a downstream that trickles its body holds the handler
	// for as long as it likes.
	CallTimeout time.Duration
	// Convert is the thumbnail command (ImageMagick's convert when nil).
	Convert []string
}

func (s *Service) callTimeout() time.Duration {
	if s.CallTimeout > 0 {
		return s.CallTimeout
	}
	return 10 * time.Second
}

// Profile proxies the profile service; when the client hangs up, or the
// call's own deadline passes, the outgoing request is cancelled.
func (s *Service) Profile(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), s.callTimeout())
	defer cancel()
	url := s.ProfileURL + "/profiles/" + r.PathValue("id")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		fail(w, r, http.StatusInternalServerError, "internal", err)
		return
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		// err holds the upstream's URL: fail logs it and sends neither.
		fail(w, r, http.StatusBadGateway, "upstream", err)
		return
	}
	defer resp.Body.Close()
	_, _ = io.Copy(w, resp.Body)
}

// Orders gives the query the request's context: the driver cancels the
// query and the connection goes back to the pool when the client leaves.
func (s *Service) Orders(w http.ResponseWriter, r *http.Request) {
	rows, err := s.DB.QueryContext(r.Context(), "SELECT id FROM orders WHERE customer = $1", r.PathValue("id"))
	if err != nil {
		fail(w, r, http.StatusInternalServerError, "internal", err)
		return
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			fail(w, r, http.StatusInternalServerError, "internal", err)
			return
		}
		ids = append(ids, id)
	}
	// Next returns false on an error too (a cancelled query, a dropped
	// connection): without this check the client gets a truncated 200.
	if err := rows.Err(); err != nil {
		fail(w, r, http.StatusInternalServerError, "internal", err)
		return
	}
	for _, id := range ids {
		_, _ = io.WriteString(w, id+"\n")
	}
}

// Thumbnail's converter is killed when the request context ends.
func (s *Service) Thumbnail(w http.ResponseWriter, r *http.Request) {
	argv := s.Convert
	if len(argv) == 0 {
		argv = []string{"convert", "-", "-resize", "64x64", "png:-"}
	}
	cmd := exec.CommandContext(r.Context(), argv[0], argv[1:]...)
	// Killing the converter does not close its output if a child of its
	// own still holds it: WaitDelay bounds how long Output waits for that.
	cmd.WaitDelay = time.Second
	cmd.Stdin = r.Body
	out, err := cmd.Output()
	if err != nil {
		fail(w, r, http.StatusInternalServerError, "internal", err)
		return
	}
	_, _ = w.Write(out)
}

// fail logs err and answers with a generic JSON error. err is for the
// logs only: a client error names the upstream's URL, a driver's the
// database host or the values in the query.
func fail(w http.ResponseWriter, r *http.Request, status int, code string, err error) {
	slog.ErrorContext(r.Context(), "request failed", "path", r.URL.Path, "code", code, "err", err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": http.StatusText(status), "code": code})
}
