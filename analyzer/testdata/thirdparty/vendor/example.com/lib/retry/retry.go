// Package retry sleeps: time.Sleep stays SIO005 in third-party code.
package retry

import "time"

// Backoff waits before the next attempt.
func Backoff() { time.Sleep(10 * time.Millisecond) }
