// Package testbroken has one finding and a test file that does not
// compile, which the standalone does not load with -tests off and go vet
// always compiles.
package testbroken

import "net/http"

func Handler(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get("http://example.com/") // finding: SIO001
	if err == nil {
		resp.Body.Close()
	}
}
