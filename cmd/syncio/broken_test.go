package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBrokenLeafCostsOnlyItself: a package with a type error (leaf) or a
// syntax error (parseleaf) is named with its error and fails the run, but
// the package that imports them is analysed, facts through the broken
// packages included, and their own findings and handlers are not
// reported. -partial judges the run
// on the findings.
func TestBrokenLeafCostsOnlyItself(t *testing.T) {
	bin := syncioBinary(t)
	run := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = filepath.Join("testdata", "brokenleaf")
		cmd.Env = append(cmd.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		code := 0
		if exit != nil {
			code = exit.ExitCode()
		}
		return string(out), code
	}
	out, code := run("./...")
	if code != 1 {
		t.Errorf("exit %d, want 1 (a package did not type-check)\n%s", code, out)
	}
	for _, want := range []string{
		"syncio: package example.com/brokenleaf/leaf: type error: leaf/leaf.go:",
		"syncio: package example.com/brokenleaf/parseleaf: parse error: parseleaf/parseleaf.go:",
		"api/api.go:13:6: Handler calls leaf.Fetch → net/http.Get", // through the type error's package
		"api/api.go:14:15: net/http.Get blocks",                    // its own
		"api/api.go:18:9: Handler calls parseleaf.Dial → net.Dial", // through the syntax error's package
		"syncio: roots: 1 request handler",                         // leaf's own handler is not counted
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if (strings.HasPrefix(l, "leaf/") || strings.HasPrefix(l, "parseleaf/")) && strings.Contains(l, "(SIO") {
			t.Errorf("a finding in the broken package was reported: %s", l)
		}
		if strings.Contains(l, "not analysed") {
			t.Errorf("a package was left out: %s", l)
		}
	}
	if _, code := run("-partial", "./..."); code != 3 {
		t.Errorf("-partial: exit %d, want 3 (findings; the broken package is no failure)", code)
	}
}
