package stale

import (
	"net/http"
	"os"
	"time"

	"stale/dep"
)

func Handler(w http.ResponseWriter, r *http.Request) {
	dep.Backoff()
	dep.Twice()
	//syncio:ignore SIO005 -- nothing waits here any more // want `^stale syncio:ignore: no SIO005 finding here to suppress; remove it \(SIO005\)$`
	w.WriteHeader(http.StatusOK)
	//syncio:ignore SIO001,SIO005 -- one of the two is enough
	time.Sleep(time.Millisecond)
	//syncio:ignore SIO006 -- SIO006 is off: nothing to judge
	_, _ = os.ReadFile("x")
	//syncio:ignore SIO006
	_, _ = os.ReadFile("y") // the ignore above has no reason, but its rule is off: nothing to judge either
	time.Sleep(time.Millisecond) //nolint:syncio // golangci-lint's own directive is left alone // want `time.Sleep waits`
}

// Quiet's doc-comment ignore hides nothing.
//
//syncio:ignore SIO005 -- was slow once // want `^stale syncio:ignore: no SIO005 finding here to suppress; remove it \(SIO005\)$`
func Quiet(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusOK)
}

// Slow's doc-comment ignore is used.
//
//syncio:ignore SIO005 -- documented slow endpoint
func Slow(w http.ResponseWriter, r *http.Request) {
	time.Sleep(time.Millisecond)
}
