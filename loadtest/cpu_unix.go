//go:build unix

package loadtest

import (
	"syscall"
	"time"
)

// processCPU is this process's user+system CPU time so far; with the API
// in-process it covers server and load generator together.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
