//go:build !unix

package loadtest

import "time"

// processCPU is unknown off unix.
func processCPU() time.Duration { return 0 }
