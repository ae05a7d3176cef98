package before

import "net/http"

// Limit lets n requests run at once; the rest wait for a slot.
func Limit(n int, next http.Handler) http.Handler {
	sem := make(chan struct{}, n)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sem <- struct{}{} // syncio: SIO005
		defer func() { <-sem }()
		next.ServeHTTP(w, r)
	})
}
