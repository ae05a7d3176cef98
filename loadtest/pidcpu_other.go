//go:build !linux

package loadtest

import (
	"fmt"
	"runtime"
	"time"
)

// pidCPU is unknown where there is no Linux /proc to read it from.
func pidCPU(pid int) (time.Duration, error) {
	return 0, fmt.Errorf("unknown: a child's CPU is read from /proc/PID/stat, which %s does not have", runtime.GOOS)
}
