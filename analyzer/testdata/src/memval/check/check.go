// Package check wraps the validator behind a helper that takes the
// caller's context and hands it to StructCtx: the helper is no more
// opaque than StructCtx, which depends on what the program registers
// (memval/app: silent; memval/appio: reported).
package check

import (
	"context"

	"github.com/go-playground/validator/v10"
)

var V = validator.New()

func Check(ctx context.Context, s string) error { // want Check:`opaque\(memory\)`
	return V.StructCtx(ctx, s)
}
