package blockwatch

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD, which the syscall package does
// not name: the resource usage of the calling thread only.
const rusageThread = 1

// threadCPU returns the CPU time (user and system) the calling OS thread
// has used. The caller locks its goroutine to the thread between two reads.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
