// Package app's handler gives the service context.Background(); the
// service only reaches the in-memory cache (main binds it), so nothing
// can block with that context: silent (apache/answer's GetUserCacheInfo
// class, issue 21 item 6; SIO002's candidate is decided in cmd, where
// the binding is seen).
package app

import (
	"context"
	"net/http"

	"cacheonly/svc"
)

var Svc *svc.Service

func Me(w http.ResponseWriter, r *http.Request) {
	_, _ = Svc.UserInfo(context.Background(), r.Header.Get("X-Token"))
}
