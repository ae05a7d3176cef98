// Package dep holds helpers whose ignores are judged in this package,
// before any caller is seen.
package dep

import (
	"net/http"
	"time"
)

// Backoff's ignore is used: it stops the helper from propagating SIO005.
func Backoff() { // want Backoff:`^io\(time.Sleep\)$`
	//syncio:ignore SIO005 -- bounded 1ms backoff
	time.Sleep(time.Millisecond)
}

// Twice has two ignored waits; the second is not the one that sets the
// helper's summary, and is still used.
func Twice() { // want Twice:`^io\(time.Sleep\)$`
	time.Sleep(time.Millisecond) //syncio:ignore SIO005 -- bounded
	time.Sleep(time.Millisecond) //syncio:ignore SIO005 -- bounded too
}

// Pure has an ignore left over from code that is gone.
func Pure() int {
	//syncio:ignore SIO001 -- used to call http.Get // want `^stale syncio:ignore: no SIO001 finding here to suppress; remove it \(SIO001\)$`
	return 1
}

// Unused is no request path, but its ignore still hides a real finding
// that any caller would see.
func Unused() error { // want Unused:`^io\(net/http.Get\)$`
	_, err := http.Get("http://x") //syncio:ignore SIO001 -- internal health probe
	return err
}
