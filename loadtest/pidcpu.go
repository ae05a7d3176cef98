package loadtest

import (
	"bytes"
	"fmt"
	"strconv"
	"time"
)

// userHZ is the unit of utime and stime in /proc/PID/stat: USER_HZ, which
// Linux keeps at 100 for user space on every architecture Go supports
// (asking sysconf(_SC_CLK_TCK) would need cgo). One tick is 10 ms, so a
// window's CPU is read to within two ticks.
const userHZ = 100

// parseStat reads utime+stime from the contents of a /proc/PID/stat. The
// command name (field 2) is in parentheses and may itself hold spaces and
// parentheses, so fields are counted after its last ')'.
func parseStat(b []byte) (time.Duration, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("no command name in %q", b)
	}
	// After the name: state (field 3), ... utime (14), stime (15).
	f := bytes.Fields(b[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("%d fields after the command name, want at least 13", len(f))
	}
	var ticks int64
	for _, v := range f[11:13] {
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("utime/stime %q: %w", v, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}
