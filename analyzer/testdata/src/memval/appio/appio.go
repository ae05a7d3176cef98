// want package:`ctxcallbacks\(github.com/go-playground/validator/v10\)`

// Package appio registers a validation func that takes the context and
// queries the database with it: Struct gives it context.Background(), so
// the query cannot be cancelled by the request. Reported.
package appio

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/go-playground/validator/v10"

	"memval/check"
)

var db *sql.DB

var v = newValidator()

func newValidator() *validator.Validate {
	v := validator.New()
	v.RegisterValidationCtx("unique", uniqueEmail)
	return v
}

func uniqueEmail(ctx context.Context, field string) bool { // want uniqueEmail:`io\(database/sql.\(\*DB\).QueryRowContext\)`
	var n int
	_ = db.QueryRowContext(ctx, "SELECT count(*) FROM users WHERE email = $1", field).Scan(&n)
	return n == 0
}

func Create(w http.ResponseWriter, r *http.Request) {
	if err := v.Struct(r.FormValue("email")); err != nil { // want `^Create calls validator.\(\*Validate\).Struct → \S*validator/v10.\(\*Validate\).StructCtx, which is given context.Background\(\) instead of the request context.*\(SIO002\)$`
		http.Error(w, err.Error(), http.StatusBadRequest)
	}
}

// Update calls StructCtx itself with context.Background(), which it gives
// uniqueEmail: reported.
func Update(w http.ResponseWriter, r *http.Request) {
	_ = v.StructCtx(context.Background(), r.FormValue("email")) // want `^\S*validator/v10.\(\*Validate\).StructCtx is given context.Background\(\) instead of the request context.*\(SIO002\)$`
}

// Delete gives a helper context.Background(), which it hands to StructCtx;
// the program registers a func taking the context (with the validator, not
// per instance): reported.
func Delete(w http.ResponseWriter, r *http.Request) {
	_ = check.Check(context.Background(), r.FormValue("email")) // want `^memval/check.Check is given context.Background\(\) instead of the request context.*\(SIO002\)$`
}
