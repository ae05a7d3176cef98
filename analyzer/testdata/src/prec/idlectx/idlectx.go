// Package idlectx: SIO002 only when the callee given context.Background()
// can reach blocking I/O with it (issue 21). A callee of an analysed
// package with no I/O on its paths (no fact, or a summary with none) is
// silent; a callee that does I/O, a standard-library call (no facts: its
// I/O is in the tables) and an interface method keep the finding. A
// callee whose only evidence is a call through an interface is decided
// where the bindings are seen (unbound/).
package idlectx

import (
	"context"
	"database/sql"
	"net/http"

	"prec/idlectx/valid"
)

type Checker interface {
	Check(ctx context.Context, v string) error
}

type Handlers struct {
	v  *valid.Validate
	db *sql.DB
	c  Checker
	w  *valid.Weighted

	hook func(context.Context) error
}

// normalize takes a context and only computes.
func normalize(ctx context.Context, s string) string {
	if ctx.Err() != nil {
		return ""
	}
	return s + "!"
}

// audit writes with the context it is given.
func audit(ctx context.Context, db *sql.DB) error { // want audit:`io\(database/sql.\(\*DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO audit VALUES (1)")
	return err
}

// notify hands the context to a hook kept in a field: it may do I/O.
func (h *Handlers) notify(ctx context.Context) error { // want notify:`opaque`
	return h.hook(ctx)
}

func (h *Handlers) Create(w http.ResponseWriter, r *http.Request) {
	ctx := context.Background()
	_ = h.v.VarCtx(ctx, r.FormValue("email"), "email")         // in memory: silent
	_ = normalize(context.TODO(), r.FormValue("name"))         // in memory, this package: silent
	_ = valid.Remote(context.Background(), "x")                // want `^prec/idlectx/valid.Remote is given context.Background\(\) instead of the request context.*\(SIO002\)$`
	_ = audit(ctx, h.db)                                       // want `^prec/idlectx.audit is given ctx \(context.Background\(\)\) instead of the request context.*\(SIO002\)$`
	_, _ = h.db.QueryContext(context.Background(), "SELECT 1") // want `^database/sql.\(\*DB\).QueryContext is given context.Background\(\)`
	_ = valid.Hooked(context.Background(), nil)                // want `^prec/idlectx/valid.Hooked is given context.Background\(\)`
	_ = h.notify(context.Background())                         // want `^prec/idlectx.\(\*Handlers\).notify is given context.Background\(\)`
	_ = valid.WithScope(context.Background())                  // want `^prec/idlectx/valid.WithScope is given context.Background\(\)`
	_ = h.w.Acquire(context.Background())                      // want `^prec/idlectx/valid.\(\*Weighted\).Acquire is given context.Background\(\)`
	_ = h.c.Check(context.Background(), "x")                   // want `^h.c.Check is given context.Background\(\)`
}
