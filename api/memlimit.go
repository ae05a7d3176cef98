package api

import (
	"math"
	"os"
	"runtime/debug"
)

// DefaultMemoryLimit is the Go runtime's soft memory limit that syncio-api
// and the load lab's API child set when their storage is external, unless
// told otherwise (-memory-limit, or GOMEMLIMIT in the environment): see
// MemoryLimitFor. The runtime counts its heap, stacks
// and own structures against it, not the program text nor azblob's mmap'd
// upload buffers. Without a limit the heap is let grow to twice what was
// live at the last collection (GOGC=100): at 4000 upload users, 404 MB in
// use for 157 MB live. Near the limit the collector runs more often
// instead, taking at most about half the CPU, so a live set above the
// limit costs CPU but never fails an allocation. RSS sits about 35 MB above
// the limit (program text, what the runtime does not count): at 4000 upload
// users 256 MiB gave 295 to 303 MB, so 240 MiB aims at the 300 MB goal with
// some room (docs/results.md).
const DefaultMemoryLimit = 240 << 20

// MemoryLimitFor is the soft memory limit an API configured as cfg runs
// under by default: DefaultMemoryLimit with external storage (the process
// holds the API alone), and none with the embedded blob fake in the
// process, whose index grows with what is stored (about 400 B a blob, up to
// StorageMaxBlobs): a fixed limit would sooner or later sit below what is
// live, and the collector would then run all the time. Measured so, the
// quick profile's async uploads at 4000 users fell from 2254 OK/s (1000
// users) to 856 (docs/results.md).
func MemoryLimitFor(cfg Config) int64 {
	if cfg.StorageConnectionString == "" {
		return 0
	}
	return DefaultMemoryLimit
}

// SetMemoryLimit sets this process's soft memory limit to limit bytes (0:
// none) and returns the limit in force. GOMEMLIMIT in the environment,
// which the runtime applied at start, wins unless explicit says the limit
// was given on the command line. It is process-wide, so only a process
// that serves the API alone (syncio-api, the lab's API child) calls it.
func SetMemoryLimit(limit int64, explicit bool) int64 {
	if os.Getenv("GOMEMLIMIT") != "" && !explicit {
		return debug.SetMemoryLimit(-1)
	}
	if limit <= 0 {
		limit = math.MaxInt64
	}
	debug.SetMemoryLimit(limit)
	return limit
}
