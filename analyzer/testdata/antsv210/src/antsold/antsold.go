// Package antsold releases an ants pool of ants v2.10.0 or before, whose
// ReleaseTimeout is Pool's own method, not a promoted poolCommon one.
package antsold

import (
	"net/http"
	"time"

	"github.com/panjf2000/ants/v2"
)

// Release joins its task, up to a timeout that is not the request's.
func Release(w http.ResponseWriter, r *http.Request) {
	p, err := ants.NewPool(4)
	if err != nil {
		return
	}
	_ = p.Submit(func() {
		_, _ = http.Get("http://upstream/a")
	})
	_ = p.ReleaseTimeout(5 * time.Second) // want `^github.com/panjf2000/ants/v2.\(\*Pool\).ReleaseTimeout waits for goroutines that do not stop with the request's context \(net/http.Get at antsold.go:\d+:\d+\)`
}
