package main

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestQuicGoPatched: gin pulls in quic-go, and govulncheck against a local
// copy of the vulnerability database names GO-2026-5676 in v0.59.0, fixed
// in v0.59.1. The module must not require an affected version again.
func TestQuicGoPatched(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`github\.com/quic-go/quic-go v0\.(\d+)\.(\d+)`).FindSubmatch(mod)
	if m == nil {
		return // no longer a dependency at all
	}
	minor, _ := strconv.Atoi(string(m[1]))
	patch, _ := strconv.Atoi(string(m[2]))
	if minor < 59 || minor == 59 && patch < 1 {
		t.Errorf("go.mod requires %s: want v0.59.1 or later (GO-2026-5676)", m[0])
	}
}
