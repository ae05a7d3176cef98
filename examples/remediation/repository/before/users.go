package before

import (
	"database/sql"
	"encoding/json"
	"net/http"
)

// User is one row of users.
type User struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Users is the repository the handlers see. Its methods take no context,
// so no query can end when the request does.
type Users interface {
	ByID(id string) (User, error)
}

// SQLUsers implements Users on database/sql.
type SQLUsers struct{ DB *sql.DB }

// ByID queries without a context.
func (s *SQLUsers) ByID(id string) (User, error) {
	var u User
	err := s.DB.QueryRow("SELECT id, name FROM users WHERE id = $1", id).Scan(&u.ID, &u.Name)
	return u, err
}

// Handler serves users.
type Handler struct{ Users Users }

// NewHandler binds the repository to its database implementation.
func NewHandler(db *sql.DB) *Handler { return &Handler{Users: &SQLUsers{DB: db}} }

// User looks a user up; the query runs on after the client has gone.
func (h *Handler) User(w http.ResponseWriter, r *http.Request) {
	u, err := h.Users.ByID(r.PathValue("id")) // syncio: SIO001
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	_ = json.NewEncoder(w).Encode(u)
}
