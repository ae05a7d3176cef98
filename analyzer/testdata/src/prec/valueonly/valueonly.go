// Package valueonly: a callee that only reads values from the context it
// is given (ctx.Value) is no reason for SIO002, in this package or
// another; one that keeps the context is.
package valueonly

import (
	"context"
	"net/http"

	"prec/valueonly/deps"
)

type userKey struct{}

// user only reads the signed-in user from ctx.
func user(ctx context.Context) *string { // want user:`^ctxunused$`
	u, _ := ctx.Value(userKey{}).(*string)
	return u
}

func Handler(w http.ResponseWriter, r *http.Request) {
	_ = deps.FromContext(context.Background())
	_ = user(context.Background())
	_ = deps.Hold(context.Background()) // want `deps.Hold is given context.Background\(\)`
}
