// want package:`holds\(1\)`

// Package deps keeps request-scoped values in the context, as dependency
// containers do (Cloudreve's dependency.FromContext).
package deps

import (
	"context"
	"database/sql"
)

type key struct{}

// Dep is what a request's context carries.
type Dep interface{ DB() *sql.DB }

// FromContext only reads a value from ctx: the context itself goes
// nowhere, so a caller's dropped context reaches no I/O through it.
func FromContext(ctx context.Context) Dep { // want FromContext:`^ctxunused$`
	d, _ := ctx.Value(key{}).(Dep)
	return d
}

// Holder keeps the context it is given: its caller's context is the one
// Run uses later.
type Holder struct{ ctx context.Context }

func Hold(ctx context.Context) *Holder { return &Holder{ctx: ctx} }

func (h *Holder) Run(db *sql.DB) { // want Run:`^blocks\(SIO001: database/sql.\(\*DB\).Exec\)$`
	_ = h.ctx.Value(key{})
	_, _ = db.Exec("SELECT 1")
}
