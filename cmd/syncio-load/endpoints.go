package main

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/syncio/syncio/loadtest"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ", ") }

func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// givenScenarios turns -endpoint values or a -targets file, plus -header
// and -body, into scenarios of the user's own service. Every error names
// the flag and the value at fault.
func givenScenarios(endpoints []string, targetsFile string, headers []string, body, target string) ([]loadtest.Scenario, error) {
	if len(endpoints) > 0 && targetsFile != "" {
		return nil, errors.New("give -endpoint or -targets, not both")
	}
	var scs []loadtest.Scenario
	for _, e := range endpoints {
		sc, err := loadtest.ParseEndpoint(e)
		if err != nil {
			return nil, fmt.Errorf("-endpoint %q: %w", e, err)
		}
		scs = append(scs, sc)
	}
	if targetsFile != "" {
		f, err := os.Open(targetsFile)
		if err != nil {
			return nil, fmt.Errorf("-targets %q: %w", targetsFile, err)
		}
		defer f.Close()
		if scs, err = loadtest.ReadTargets(f); err != nil {
			return nil, fmt.Errorf("-targets %q: %w", targetsFile, err)
		}
	}
	// source names the flag and value scenario i came from.
	source := func(i int) string {
		if len(endpoints) > 0 {
			return fmt.Sprintf("-endpoint %q", endpoints[i])
		}
		return fmt.Sprintf("-targets %q", targetsFile)
	}
	seen := map[string]bool{}
	for i, sc := range scs {
		if seen[sc.Name] {
			return nil, fmt.Errorf("%s: the name %s is used twice", source(i), sc.Name)
		}
		seen[sc.Name] = true
		if !sc.IsAbsolute() && target == "" {
			return nil, fmt.Errorf("%s: the path %s needs -target BASE_URL (or give a full URL)", source(i), sc.Path)
		}
	}
	hdr := http.Header{}
	for _, h := range headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(k) == "" || strings.ContainsAny(strings.TrimSpace(k), " \t") {
			return nil, fmt.Errorf("-header %q: want 'Key: value'", h)
		}
		hdr.Add(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	var b []byte
	if body != "" {
		name, ok := strings.CutPrefix(body, "@")
		if !ok || name == "" {
			return nil, fmt.Errorf("-body %q: want @FILE", body)
		}
		var err error
		if b, err = os.ReadFile(name); err != nil {
			return nil, fmt.Errorf("-body %q: %w", body, err)
		}
	}
	return loadtest.WithRequest(scs, hdr, b), nil
}
