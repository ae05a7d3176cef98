// Package ok has one plain finding and one behind //nolint:syncio, which
// only golangci-lint honours.
package ok

import (
	"net/http"
	"time"
)

func Handler(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get("http://example.com/") // finding: SIO001
	if err == nil {
		resp.Body.Close()
	}
	time.Sleep(time.Second) //nolint:syncio // finding: SIO005 (nolint is golangci-lint's)
}
