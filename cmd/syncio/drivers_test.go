package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDriverTable keeps the standalone and go vet columns of "The three
// drivers compared" in docs/ci.md true (tools/golangci tests the
// golangci-lint column). testdata/drivers is a module of its own.
func TestDriverTable(t *testing.T) {
	bin := syncioBinary(t)
	dir := filepath.Join("testdata", "drivers")
	run := func(name string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return string(out), exit.ExitCode()
		}
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out), 0
	}
	standalone := func(pkgs ...string) (string, int) { return run(bin, pkgs...) }
	vet := func(pkgs ...string) (string, int) {
		return run("go", append([]string{"vet", "-vettool=" + bin}, pkgs...)...)
	}
	plain := regexp.MustCompile(`(?m)ok\.go:11:15: net/http\.Get blocks.*\(SIO001\)$`)
	nolinted := regexp.MustCompile(`(?m)ok\.go:15:2: time\.Sleep waits.*\(SIO005\)$`)
	embedded := regexp.MustCompile(`(?m)embedmiss\.go:13:2: net/http\.Get blocks.*\(SIO001\)$`)
	testbroken := regexp.MustCompile(`(?m)testbroken\.go:9:15: net/http\.Get blocks.*\(SIO001\)$`)

	check := func(row, out string, code, wantCode int, want map[*regexp.Regexp]bool, texts map[string]bool) {
		t.Helper()
		if code != wantCode {
			t.Errorf("%s: exit %d, want %d\n%s", row, code, wantCode, out)
		}
		for re, w := range want {
			if re.MatchString(out) != w {
				t.Errorf("%s: %s printed = %v, want %v\n%s", row, re, !w, w, out)
			}
		}
		for s, w := range texts {
			if strings.Contains(out, s) != w {
				t.Errorf("%s: %q printed = %v, want %v\n%s", row, s, !w, w, out)
			}
		}
	}

	out, code := standalone("./ok")
	check("standalone, findings and //nolint:syncio", out, code, 3, map[*regexp.Regexp]bool{plain: true, nolinted: true}, nil)
	out, code = vet("./ok")
	check("vet, findings and //nolint:syncio", out, code, 1, map[*regexp.Regexp]bool{plain: true, nolinted: true}, nil)

	out, code = standalone("./ok", "./broken")
	check("standalone, broken package", out, code, 1, map[*regexp.Regexp]bool{plain: true},
		map[string]bool{"package example.com/drivers/broken: type error": true})
	out, code = vet("./ok", "./broken")
	check("vet, broken package", out, code, 1, map[*regexp.Regexp]bool{plain: true},
		map[string]bool{`cannot use "not a number"`: true})

	// go vet vets a package together with its test files, whatever the
	// analyzer's -tests says, so the package's own finding is lost there.
	out, code = standalone("./testbroken")
	check("standalone, test file that does not compile", out, code, 3, map[*regexp.Regexp]bool{testbroken: true},
		map[string]bool{"testbroken_test.go": false})
	out, code = vet("./ok", "./testbroken")
	check("vet, test file that does not compile", out, code, 1, map[*regexp.Regexp]bool{plain: true, testbroken: false},
		map[string]bool{`testbroken_test.go:6:14: cannot use "not a number"`: true})

	out, code = standalone("./embedmiss")
	check("standalone, missing embed", out, code, 1, map[*regexp.Regexp]bool{embedded: true},
		map[string]bool{"package example.com/drivers/embedmiss: embed error: pattern missing.txt: no matching files found": true})
	out, code = vet("./ok", "./embedmiss")
	check("vet, missing embed", out, code, 1, map[*regexp.Regexp]bool{plain: false, embedded: false},
		map[string]bool{"pattern missing.txt: no matching files found": true})
}
