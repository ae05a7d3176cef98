// want package:`convs\(1\)`

// Package site registers its handlers with router.For.
package site

import (
	"database/sql"
	"net/http"

	"adapters/router"
)

type Server struct{ db *sql.DB }

func (s *Server) handleIndex(c *router.Context) {
	_, _ = s.db.Query("SELECT 1") // want `^database/sql.\(\*DB\).Query blocks`
}

func (s *Server) onStart(c *router.Context) { // want onStart:`blocks\(SIO001`
	_, _ = http.Get("http://warmup")
}

func (s *Server) Handler() http.Handler {
	r := &router.Router{}
	r.For("/", s.handleIndex)
	r.OnStart(s.onStart)
	return r
}
