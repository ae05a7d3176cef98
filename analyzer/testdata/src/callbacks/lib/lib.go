// Package lib has helpers that take callbacks, as cache and retry
// libraries do.
package lib

var hooks []func()

// Get calls its loader before it returns: the loader is on the caller's path.
func Get(key string, load func() (string, error)) (string, error) { // want Get:`^calls\(1\)$`
	return load()
}

// Retry passes its function on to Get's loader: on the path too.
func Retry(n int, fn func() (string, error)) (string, error) { // want Retry:`^calls\(1\)$`
	var err error
	for range n {
		var v string
		if v, err = Get("k", fn); err == nil {
			return v, nil
		}
	}
	return "", err
}

// Register only stores its function.
func Register(fn func()) { hooks = append(hooks, fn) } // want Register:`^stores\(0→callbacks/lib.hooks\)$`

// Async starts its function on another goroutine.
func Async(fn func()) { go fn() }
