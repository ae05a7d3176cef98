package blockwatch

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// ServeHTTP serves the Report: JSON by default, or with ?format=pprof a
// profile that go tool pprof reads. Any other format is a 400 with a JSON
// error body.
func (w *Watcher) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	switch f := r.URL.Query().Get("format"); f {
	case "", "json":
		rw.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(rw)
		enc.SetIndent("", "  ")
		_ = enc.Encode(w.Report()) // the client is gone if this fails
	case "pprof":
		rw.Header().Set("Content-Type", "application/octet-stream")
		rw.Header().Set("Content-Disposition", `attachment; filename="blocking.pb.gz"`)
		_ = w.Report().WriteProfile(rw)
	default:
		rw.Header().Set("Content-Type", "application/json")
		rw.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(rw).Encode(map[string]string{
			"error": "format " + strconv.Quote(f) + ": want json or pprof",
			"code":  "bad_format",
		})
	}
}
