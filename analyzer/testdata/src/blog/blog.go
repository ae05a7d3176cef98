// want package:`pending\(1\)` package:`convs\(1\)` package:`joined\(1\)`

// Package blog is a service whose import path holds the word "log": its
// interfaces are the service's own storage, not a logger's, so dispatch
// follows them (a substring match on "log" once turned it off for every
// package of such a module).
package blog

import (
	"database/sql"
	"net/http"
)

type Posts interface {
	Title(id string) (string, error)
}

type sqlPosts struct{ db *sql.DB }

func (s sqlPosts) Title(id string) (string, error) { // want Title:`blocks\(SIO001: database/sql.\(\*DB\).QueryRow\)`
	var t string
	err := s.db.QueryRow("SELECT title FROM posts WHERE id = ?", id).Scan(&t)
	return t, err
}

type Server struct{ posts Posts }

func New(db *sql.DB) *Server { return &Server{posts: sqlPosts{db: db}} }

func (s *Server) Post(w http.ResponseWriter, r *http.Request) {
	t, _ := s.posts.Title(r.URL.Query().Get("id")) // want `SIO001.*sqlPosts.*QueryRow|QueryRow.*SIO001`
	w.Write([]byte(t))
}
