// Package lockfile: enabling SIO006 does not hide a SIO003 on the same
// path (issue 21): a helper whose highest-ranked path is file I/O keeps
// the lock it holds across a query, and a handler's lock across a helper
// that reads a file and queries is still SIO003.
package lockfile

import (
	"database/sql"
	"net/http"
	"sync"

	"prec/lockfile/store"
)

type Handlers struct {
	st *store.Store
	mu sync.Mutex
	db *sql.DB
}

func (h *Handlers) Save(w http.ResponseWriter, r *http.Request) {
	_ = h.st.Save(r.Context(), "v") // want `calls store.\(\*Store\).Save → os.WriteFile.*\(SIO006\)$` `calls store.\(\*Store\).Save → database/sql.\(\*DB\).ExecContext, which does I/O while s.mu .*is held.*\(SIO003\)$`
}

func (h *Handlers) Load(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, _ = store.Load(r.Context(), h.db) // want `calls store.Load → os.ReadFile.*\(SIO006\)$` `calls store.Load → database/sql.\(\*DB\).QueryRowContext, which does I/O while h.mu .*is held.*\(SIO003\)$`
}

// local is the same in this package: its summary, not a fact.
func (h *Handlers) local(r *http.Request) error { // want local:`blocks\(SIO006: store.Load → os.ReadFile\) \+ blocks\(\+SIO003: database/sql.\(\*DB\).ExecContext\)`
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, err := h.db.ExecContext(r.Context(), "DELETE FROM t"); err != nil {
		return err
	}
	_, err := store.Load(r.Context(), h.db)
	return err
}

func (h *Handlers) Delete(w http.ResponseWriter, r *http.Request) {
	_ = h.local(r) // want `calls lockfile.\(\*Handlers\).local → store.Load → os.ReadFile.*\(SIO006\)$` `calls lockfile.\(\*Handlers\).local → database/sql.\(\*DB\).ExecContext, which does I/O while h.mu .*is held.*\(SIO003\)$`
}
