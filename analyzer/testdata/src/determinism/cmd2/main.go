// Two mains see the handler's pending call and every wiring package.
package main

import (
	"net/http"

	"determinism/api"
	"determinism/wirea"
	"determinism/wireb"
	"determinism/wirec"
	"determinism/wired"
)

func main() {
	u := &api.Users{S: wirea.New()}
	_, _, _ = wireb.New(), wirec.New(), wired.New()
	_ = http.ListenAndServe(":2", http.HandlerFunc(u.Get))
}
