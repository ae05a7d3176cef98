package after

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
)

// User is one row of users.
type User struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Users is the repository the handlers see. Every method takes the
// caller's context first: the interface is where the context is lost or
// kept, for every implementation behind it (and every test double).
type Users interface {
	ByID(ctx context.Context, id string) (User, error)
}

// SQLUsers implements Users on database/sql.
type SQLUsers struct{ DB *sql.DB }

// ByID gives the caller's context to the query: it is cancelled, and its
// connection returned to the pool, when the request ends.
func (s *SQLUsers) ByID(ctx context.Context, id string) (User, error) {
	var u User
	err := s.DB.QueryRowContext(ctx, "SELECT id, name FROM users WHERE id = $1", id).Scan(&u.ID, &u.Name)
	return u, err
}

// Handler serves users.
type Handler struct{ Users Users }

// NewHandler binds the repository to its database implementation.
func NewHandler(db *sql.DB) *Handler { return &Handler{Users: &SQLUsers{DB: db}} }

// User passes the request's context down through the repository.
func (h *Handler) User(w http.ResponseWriter, r *http.Request) {
	u, err := h.Users.ByID(r.Context(), r.PathValue("id"))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		writeError(w, http.StatusNotFound, "no such user", "not_found")
	case err != nil:
		// The driver's message may name tables, hosts or values: log it.
		slog.ErrorContext(r.Context(), "user lookup", "id", r.PathValue("id"), "err", err)
		writeError(w, http.StatusInternalServerError, "internal error", "internal")
	default:
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(u)
	}
}

// writeError answers with a JSON error that says what failed and nothing
// more.
func writeError(w http.ResponseWriter, status int, msg, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg, "code": code})
}
