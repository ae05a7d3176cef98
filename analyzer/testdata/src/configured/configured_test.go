package configured

import (
	"net/http"
	"testing"
)

// testHandler is a request root only because -tests is set.
func testHandler(w http.ResponseWriter, r *http.Request) {
	_, _ = http.Get("http://x") // want `net/http.Get blocks`
}

func TestNothing(t *testing.T) { _ = notRoot }
