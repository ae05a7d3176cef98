//go:build !linux

package blockwatch

import "time"

// threadCPU cannot read a thread's CPU time here; the budget then counts
// the wall time of a sample (Report.BudgetClock says so).
func threadCPU() (time.Duration, bool) { return 0, false }
