package limits

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// spare covers stdio, the listener, the metrics scraper, result files and
// the embedded fakes' own connections.
const spare = 256

// Need returns the file descriptors users closed-loop users take: one
// socket each on the client side, and as many again when the API runs in
// this process and holds the server side.
func Need(users int, inProcess bool) int {
	n := users
	if inProcess {
		n *= 2
	}
	return n + spare
}

// CheckFDs returns an error naming what to raise when the soft limit on
// open files (which Go lifts to the hard limit at start-up) is below need.
func CheckFDs(need int) error {
	soft, hard, err := openFileLimit()
	if err != nil {
		return nil // unknown on this platform: let the run find out
	}
	if soft >= uint64(need) {
		return nil
	}
	if hard < uint64(need) {
		return fmt.Errorf("need %d open files but the hard limit is %d: raise it (e.g. `ulimit -Hn %d && ulimit -n %d` as root, or nofile in /etc/security/limits.conf), or run fewer users", need, hard, need, need)
	}
	return fmt.Errorf("need %d open files but the limit is %d: raise it with `ulimit -n %d`, or run fewer users", need, soft, need)
}

// CheckPorts returns an error when the ephemeral port range is too small
// for users keep-alive connections to one host. It reads Linux's
// /proc/sys/net/ipv4/ip_local_port_range and passes elsewhere.
func CheckPorts(users int) error {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return nil
	}
	lo, hi, err := parseRange(string(b))
	if err != nil {
		return fmt.Errorf("reading the ephemeral port range: %w", err)
	}
	return checkRange(lo, hi, users)
}

func checkRange(lo, hi, users int) error {
	// Each user keeps one connection; reconnections after errors leave
	// sockets in TIME_WAIT, so ask for some headroom.
	need := users + users/4 + 100
	if have := hi - lo + 1; have < need {
		return fmt.Errorf("need about %d ephemeral ports but net.ipv4.ip_local_port_range gives %d (%d-%d): widen it with `sysctl -w net.ipv4.ip_local_port_range=\"1024 65535\"`, or run fewer users", need, have, lo, hi)
	}
	return nil
}

func parseRange(s string) (lo, hi int, err error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("unexpected port range %q", s)
	}
	lo, err1 := strconv.Atoi(f[0])
	hi, err2 := strconv.Atoi(f[1])
	if err := errors.Join(err1, err2); err != nil {
		return 0, 0, fmt.Errorf("port range %q: %w", s, err)
	}
	return lo, hi, nil
}

// Check runs both checks for the largest step.
func Check(users int, inProcess bool) error {
	return errors.Join(CheckFDs(Need(users, inProcess)), CheckPorts(users))
}
