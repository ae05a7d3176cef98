package analyzer

import (
	"sort"
	"strings"
	"testing"
)

// TestRegistrars: handlers handed to the program's own registration
// helpers (navidrome's h and hr, a helper that passes its parameter on,
// another package's helper) are request roots, reported inside
// themselves; a function of the same shape that is never registered is
// not.
func TestRegistrars(t *testing.T) {
	t.Parallel()
	p := seenPackages(t, cases.Run(t, Analyzer, "registrars", "registrars/routing"))["registrars"]
	if p == nil {
		t.Fatal("no result for package registrars")
	}
	var roots []string
	for _, r := range p.Roots {
		roots = append(roots, r.Name+" "+r.How)
	}
	sort.Strings(roots)
	want := []string{
		"func literal registration", // h's literal, handed to hr
		"func literal signature",    // hr's handle
		"registrars.getUser registration",
		"registrars.other registration", // through routing.Add, by its fact
		"registrars.passed registration",
		"registrars.quiet registration",
		"registrars.stream registration",
	}
	if strings.Join(roots, "\n") != strings.Join(want, "\n") {
		t.Errorf("roots:\n%s\nwant:\n%s", strings.Join(roots, "\n"), strings.Join(want, "\n"))
	}
	// hr's own registration, and one per call of a registrar with the
	// handler it was given (routing.Add's call included).
	var regs []string
	for _, r := range p.Registrations {
		regs = append(regs, r.Call+": "+strings.Join(r.Handlers, ", ")+strings.Join(r.Unresolved, ", "))
	}
	sort.Strings(regs)
	wantR := []string{
		"net/http.(*ServeMux).HandleFunc: func literal at registrars.go:34:12",
		"registrars.h: registrars.getUser",
		"registrars.h: registrars.quiet",
		"registrars.h: what the callers of registrars.passOn pass as f",
		"registrars.hr: func literal at registrars.go:28:16",
		"registrars.hr: registrars.stream",
		"registrars.passOn: registrars.passed",
		"registrars/routing.Add: registrars.other",
	}
	if strings.Join(regs, "\n") != strings.Join(wantR, "\n") {
		t.Errorf("registrations:\n%s\nwant:\n%s", strings.Join(regs, "\n"), strings.Join(wantR, "\n"))
	}
}
