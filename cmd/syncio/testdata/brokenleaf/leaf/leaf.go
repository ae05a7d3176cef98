// Package leaf has a type error and no handler; api imports it.
package leaf

import "net/http"

// Fetch does I/O without a context: api's handler reaches it.
func Fetch(u string) error {
	resp, err := http.Get(u)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Handler is a request handler in the broken package: its finding would
// be judged on incomplete types, so it is not reported.
func Handler(w http.ResponseWriter, r *http.Request) {
	_ = Fetch("http://example.com/leaf")
}

func broken() int { return undefinedName } // type error
