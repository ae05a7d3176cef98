// Package watchlabels is a service outside this repository wired as
// docs/remediation.md's Confirm step shows: blockwatch.Hold inside a lock
// and inside a transaction is labelling, not I/O. The calls after it still
// are.
package watchlabels

import (
	"context"
	"database/sql"
	"net/http"
	"sync"

	"github.com/syncio/syncio/blockwatch"
	"github.com/syncio/syncio/blockwatch/ginwatch"
)

type Shop struct {
	mu sync.Mutex
	db *sql.DB
}

func (s *Shop) Price(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ctx, release := blockwatch.Hold(r.Context(), "price-lock")
	defer release()
	retake := blockwatch.Drop(ctx, "price-lock")
	retake()
	_, done := ginwatch.Hold(ctx, "price-lock")
	done()
}

func (s *Shop) Checkout(w http.ResponseWriter, r *http.Request) {
	tx, err := s.db.BeginTx(r.Context(), nil)
	if err != nil {
		return
	}
	defer tx.Rollback()
	ctx, release := blockwatch.Hold(r.Context(), "conn")
	defer release()
	blockwatch.Do(ctx, "pay", func(context.Context) {})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://pay.example/", nil)
	resp, err := http.DefaultClient.Do(req) // want `net/http.\(\*Client\).Do does I/O while transaction tx`
	if err == nil {
		resp.Body.Close()
	}
	_ = tx.Commit()
}
