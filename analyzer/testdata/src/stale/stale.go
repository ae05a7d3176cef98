// want package:`pending\(3\)` package:`convs\(1\)` package:`joined\(1\)`
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
	_, _ = os.ReadFile("y")      // the ignore above has no reason, but its rule is off: nothing to judge either
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

// Store is called through an interface below; the binding this package
// sees (slowStore) waits.
type Store interface{ Get() }

type slowStore struct{}

func (slowStore) Get() { time.Sleep(time.Millisecond) } // want Get:`^blocks\(SIO005: time.Sleep\)$`

var store Store = slowStore{}

// Fetcher is bound only in stale/wire, which imports this package: its
// calls are joined there, and this package cannot judge their ignores.
type Fetcher interface{ Fetch() }

var Remote Fetcher

// Dispatched's ignores travel with its interface calls; this package's
// join decides those of the calls whose bindings it sees.
func Dispatched(w http.ResponseWriter, r *http.Request) {
	//syncio:ignore SIO005 -- the store's wait is bounded
	store.Get()

	//syncio:ignore SIO002 -- names the wrong rule // want `^stale syncio:ignore: no SIO002 finding here to suppress; remove it \(SIO002\)$`
	store.Get() // want `^Dispatched calls store.Get \(stale.Store, bound to stale.slowStore in stale\) → stale.slowStore.Get → time.Sleep, which waits with no way to cancel it; .*\(SIO005\)$`

	//syncio:ignore SIO001 -- hides the fetch that stale/wire binds
	Remote.Fetch()
}
