package reportignored

import (
	"net/http"
	"time"
)

// With -report-ignored, ignores hide nothing and none is reported stale.
func Handler(w http.ResponseWriter, r *http.Request) {
	//syncio:ignore SIO005 -- deliberate, but still reported
	time.Sleep(time.Millisecond) // want `time.Sleep waits`
	//syncio:ignore SIO005 -- hides nothing, and is not reported stale either
	w.WriteHeader(http.StatusOK)
}

// Slow's doc-comment ignore hides nothing either.
//
//syncio:ignore SIO005 -- documented slow endpoint
func Slow(w http.ResponseWriter, r *http.Request) {
	time.Sleep(time.Millisecond) // want `time.Sleep waits`
}
