package api

// No exported declaration in this file: go vet's export data has no line
// of it at all.

import "net/http"

func (h *Handlers) live(w http.ResponseWriter, r *http.Request) {
	if err := h.DB.Ping(); err != nil { // finding: SIO001
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	}
}
