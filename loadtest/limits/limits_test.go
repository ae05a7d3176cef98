package limits

import (
	"strings"
	"testing"
)

func TestNeed(t *testing.T) {
	if got, want := Need(4000, true), 8000+spare; got != want {
		t.Errorf("Need(4000, in-process) = %d, want %d", got, want)
	}
	if got, want := Need(4000, false), 4000+spare; got != want {
		t.Errorf("Need(4000, remote) = %d, want %d", got, want)
	}
}

func TestCheckFDs(t *testing.T) {
	soft, _, err := openFileLimit()
	if err != nil {
		t.Skip("no open-file limit on this platform")
	}
	if err := CheckFDs(int(min(soft, 1<<30))); err != nil {
		t.Errorf("need equal to the limit: %v", err)
	}
	err = CheckFDs(int(min(soft, 1<<40)) + 1)
	if err == nil || !strings.Contains(err.Error(), "ulimit") {
		t.Errorf("need above the limit: %v, want advice naming ulimit", err)
	}
}

func TestCheckRange(t *testing.T) {
	if err := checkRange(32768, 60999, 4000); err != nil {
		t.Errorf("28k ports for 4000 users: %v", err)
	}
	err := checkRange(60000, 61000, 4000)
	if err == nil || !strings.Contains(err.Error(), "ip_local_port_range") {
		t.Errorf("1001 ports for 4000 users: %v, want advice naming ip_local_port_range", err)
	}
}

func TestParseRange(t *testing.T) {
	lo, hi, err := parseRange("32768\t60999\n")
	if err != nil || lo != 32768 || hi != 60999 {
		t.Errorf("parseRange = %d, %d, %v", lo, hi, err)
	}
	for _, bad := range []string{"", "1 2 3", "a b"} {
		if _, _, err := parseRange(bad); err == nil {
			t.Errorf("parseRange(%q) accepted", bad)
		}
	}
}
