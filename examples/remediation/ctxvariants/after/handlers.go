package after

import (
	"database/sql"
	"io"
	"net/http"
	"os/exec"
)

// Service holds what the handlers share. Client is built once at start-up
// (see ../../clients/after).
type Service struct {
	DB         *sql.DB
	Client     *http.Client
	ProfileURL string
}

// Profile proxies the profile service; when the client hangs up, the
// request context is cancelled and so is the outgoing request.
func (s *Service) Profile(w http.ResponseWriter, r *http.Request) {
	url := s.ProfileURL + "/profiles/" + r.PathValue("id")
	req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, url, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
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
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_, _ = io.WriteString(w, id+"\n")
	}
}

// Thumbnail's converter is killed when the request context ends.
func Thumbnail(w http.ResponseWriter, r *http.Request) {
	cmd := exec.CommandContext(r.Context(), "convert", "-", "-resize", "64x64", "png:-")
	cmd.Stdin = r.Body
	out, err := cmd.Output()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	_, _ = w.Write(out)
}
