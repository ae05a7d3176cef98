// Package app validates its requests with the validator and registers a
// validation func that never sees a context: the context.Background()
// that Struct gives StructCtx reaches only in-memory checks, so silent.
package app

import (
	"context"
	"net/http"
	"strings"

	"github.com/go-playground/validator/v10"

	"memval/check"
)

var v = newValidator()

func newValidator() *validator.Validate {
	v := validator.New()
	v.RegisterValidation("notblank", notBlank)
	return v
}

func notBlank(field string) bool { return strings.TrimSpace(field) != "" }

func Create(w http.ResponseWriter, r *http.Request) {
	if err := v.Struct(r.FormValue("name")); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
	}
}

// Update calls StructCtx itself with context.Background(): silent too.
func Update(w http.ResponseWriter, r *http.Request) {
	_ = v.StructCtx(context.Background(), r.FormValue("name"))
}

// Delete gives a helper context.Background(), which it hands to StructCtx:
// silent as well.
func Delete(w http.ResponseWriter, r *http.Request) {
	_ = check.Check(context.Background(), r.FormValue("name"))
}
