// Package appnobind is app in a program that binds nothing to svc.Repo
// (cmdnobind): no binding says the context is safe, so the signature
// rule reports the call, in the program's main package, where no binding
// can come later.
package appnobind

import (
	"context"
	"net/http"

	"cacheonly/svc"
)

var Svc *svc.Service

func Me(w http.ResponseWriter, r *http.Request) {
	_, _ = Svc.UserInfo(context.TODO(), r.Header.Get("X-Token")) // reports: `^cacheonly/svc.\(\*Service\).UserInfo is given context.TODO\(\) instead of the request context; pass the request's context.*\(SIO002\)$`
}
