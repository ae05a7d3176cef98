// Package appsql is app with the program's own database-backed cache
// bound in main: the context.Background() reaches a query. Reported, and
// must stay so.
package appsql

import (
	"context"
	"net/http"

	"cacheonly/svc"
)

var Svc *svc.Service

func Me(w http.ResponseWriter, r *http.Request) {
	_, _ = Svc.UserInfo(context.Background(), r.Header.Get("X-Token")) // reports: `^cacheonly/svc.\(\*Service\).UserInfo is given context.Background\(\) instead of the request context.*\(SIO002\)$`
}
