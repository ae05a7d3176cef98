//go:build linux

package loadtest

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// pidCPU is process pid's user+system CPU time so far, all its threads.
func pidCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err // names the file and why: the process has exited, say
	}
	d, err := parseStat(b)
	if err != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	return d, nil
}
