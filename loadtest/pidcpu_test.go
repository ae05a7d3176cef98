package loadtest

import (
	"bufio"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	// A command name with spaces and parentheses: fields count from its
	// last ')'. utime 250 and stime 130 ticks: 3.8 s at USER_HZ 100.
	line := "4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 130 0 0 20 0 9 0 100 1000000 500 18446744073709551615\n"
	got, err := parseStat([]byte(line))
	if err != nil || got != 3800*time.Millisecond {
		t.Errorf("parseStat = %v, %v; want 3.8s", got, err)
	}
	for _, bad := range []string{"", "4242 no name here", "4242 (x) S 1 2", "4242 (x) S 1 2 3 4 5 6 7 8 9 10 ten 12"} {
		if _, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q) took it", bad)
		}
	}
}

// TestPidCPUReadsAChild: the CPU a child process burned is read by its
// PID. The child says when its loop is done and waits on stdin, so it is
// read alive and nothing here depends on how long the loop takes.
func TestPidCPUReadsAChild(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, err := pidCPU(1); err == nil || !strings.Contains(err.Error(), "unknown") {
			t.Errorf("off Linux pidCPU says %v, want unknown", err)
		}
		return
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to burn CPU in")
	}
	cmd := exec.Command(sh, "-c", `i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo done; read x`)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "done\n" {
		t.Fatalf("child said %q, %v", line, err)
	}
	cpu, err := pidCPU(cmd.Process.Pid)
	if err != nil || cpu <= 0 {
		t.Errorf("pidCPU of a child that looped 200000 times: %v, %v; want more than 0", cpu, err)
	}

	if _, err := pidCPU(-1); err == nil {
		t.Error("pidCPU of no process succeeded")
	}
}
