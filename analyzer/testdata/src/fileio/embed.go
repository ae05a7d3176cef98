package fileio

import (
	_ "embed"
	"net/http"
	"os"
)

//go:embed page.html
var page []byte

// Page serves a page read into the binary at build time: no file I/O on
// the request path, nothing to report.
func Page(w http.ResponseWriter, r *http.Request) {
	_, _ = w.Write(page)
}

// AdminConfig reads a small local file on a rare admin call, on purpose.
func AdminConfig(w http.ResponseWriter, r *http.Request) {
	//syncio:ignore SIO006 -- tiny config file on local disk, read once per admin call
	b, err := os.ReadFile("config.json")
	if err != nil {
		http.Error(w, "no config", http.StatusInternalServerError)
		return
	}
	_, _ = w.Write(b)
}
