package before

import (
	"database/sql"
	"io"
	"net/http"
	"os/exec"
)

// Service holds what the handlers share. The *sql.DB is opened once at
// start-up by the caller; no driver is imported here.
type Service struct {
	DB         *sql.DB
	ProfileURL string
}

// Profile proxies the profile service. If the client hangs up, the
// outgoing request still runs until the remote side answers.
func (s *Service) Profile(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get(s.ProfileURL + "/profiles/" + r.PathValue("id")) // syncio: SIO001
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	_, _ = io.Copy(w, resp.Body)
}

// Orders keeps its database connection until the query ends, even when
// nobody is waiting for the answer any more.
func (s *Service) Orders(w http.ResponseWriter, r *http.Request) {
	rows, err := s.DB.Query("SELECT id FROM orders WHERE customer = $1", r.PathValue("id")) // syncio: SIO001
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

// Thumbnail runs an external converter that nothing can stop early.
func Thumbnail(w http.ResponseWriter, r *http.Request) {
	cmd := exec.Command("convert", "-", "-resize", "64x64", "png:-") // syncio: SIO001
	cmd.Stdin = r.Body
	out, err := cmd.Output()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	_, _ = w.Write(out)
}
