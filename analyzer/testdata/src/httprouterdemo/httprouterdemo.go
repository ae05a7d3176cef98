// Package httprouterdemo covers julienschmidt/httprouter handles as request
// roots, declared and as func literals.
package httprouterdemo

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"
)

var db *sql.DB

func Show(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
	_, _ = http.Get("http://example.com/" + ps.ByName("id")) // want `^net/http.Get blocks without the request context`
	_, _ = db.QueryContext(r.Context(), "SELECT 1")
	_, _ = db.QueryContext(context.Background(), "SELECT 1") // want `QueryContext is given context.Background\(\)`
}

func routes() {
	router := httprouter.New()
	router.GET("/a/:id", func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
		time.Sleep(time.Second) // want `time.Sleep waits`
	})
	router.GET("/b/:id", Show)
}

// Params has httprouter's type name in another package.
type Params []httprouter.Param

// LocalParams has the shape of a handle, but its Params is not
// httprouter's: not a root.
func LocalParams(w http.ResponseWriter, r *http.Request, ps Params) { // want LocalParams:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
}

// Extra takes one parameter more than httprouter.Handle: not a root.
func Extra(w http.ResponseWriter, r *http.Request, ps httprouter.Params, n int) { // want Extra:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Duration(n))
}

// ParamSlice takes []httprouter.Param, not httprouter.Params: not a root.
func ParamSlice(w http.ResponseWriter, r *http.Request, ps []httprouter.Param) { // want ParamSlice:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
}
