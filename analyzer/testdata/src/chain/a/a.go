// Package a holds the roots of a cross-package chain.
package a

import (
	"net/http"

	"chain/b"
)

func GetProfile(w http.ResponseWriter, r *http.Request) {
	p := &b.Profiles{}
	_ = p.Load("42")               // want `^GetProfile calls b.\(\*Profiles\).Load → c.Fetch → net/http.Get, which blocks without the request context; use http.NewRequestWithContext\(ctx, http.MethodGet, url, nil\) and http.DefaultClient.Do\(req\) \(SIO001\)$`
	_, _ = b.Repo[int]{}.Find("1") // want `^GetProfile calls b.Repo.Find → c.Get → c.Fetch → net/http.Get, which blocks`
	_ = b.Audit()                  // want `^GetProfile calls b.Audit → c.Drop → database/sql.\(\*DB\).PingContext, which is given context.Background\(\) .*\(SIO002\)$`
	_ = b.Load(r.Context(), "1")   // passes the request context on: clean // want `\(SIO008\)$`
	_ = b.Count("1")               // does not block
}
