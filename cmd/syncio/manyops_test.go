package main

import (
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestJSONCarriesEveryOperation (issue 21 item 5): testdata/manyops's
// handler calls store.Account, which reaches six distinct blocking
// operations without the request context: four database calls, a local
// process and, last in the source, one remote http.Get. The one SIO001
// finding names the remote call first, three more, and "and 2 more"; its
// -json related list carries all six operations at their own lines.
func TestJSONCarriesEveryOperation(t *testing.T) {
	bin := syncioBinary(t)
	cmd := exec.Command(bin, "-json", "./...")
	cmd.Dir = filepath.Join("testdata", "manyops")
	cmd.Env = append(cmd.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
	out, runErr := cmd.Output()
	var exit *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exit) {
		t.Fatalf("syncio: %v", runErr)
	}
	type related struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	}
	type diag struct {
		Category string    `json:"category"`
		Message  string    `json:"message"`
		Related  []related `json:"related"`
	}
	var tree map[string]map[string][]diag
	if err := json.Unmarshal(out, &tree); err != nil {
		t.Fatalf("%v\n%s%s", err, out, stderrOf(runErr))
	}
	diags := tree["example.com/manyops/api"]["syncio"]
	if len(diags) != 1 || diags[0].Category != "SIO001" {
		t.Fatalf("want one SIO001 finding, got %+v", diags)
	}
	d := diags[0]
	if !strings.HasPrefix(d.Message, "Account calls store.Account → net/http.Get, which blocks") {
		t.Errorf("message does not name the remote call first: %q", d.Message)
	}
	const tail = "; also reaches store.Account → database/sql.(*DB).Query at store.go:16:9, " +
		"store.Account → database/sql.(*DB).Exec at store.go:17:9, store.Account → database/sql.(*DB).Ping at store.go:18:6, " +
		"and 2 more (SIO001)"
	if !strings.HasSuffix(d.Message, tail) {
		t.Errorf("message %q\nwant it to end %q", d.Message, tail)
	}
	// Every operation at its line of store.go: the main path's last hop
	// and one "also reaches" each for the other five.
	got := map[int]string{}
	for _, r := range d.Related {
		if filepath.Base(filepath.Dir(r.Posn)) != "store" {
			continue
		}
		_, lc, _ := strings.Cut(filepath.Base(r.Posn), ":")
		line, _ := strconv.Atoi(strings.Split(lc, ":")[0])
		got[line] = r.Message
	}
	want := map[int]string{
		16: "also reaches database/sql.(*DB).Query",
		17: "also reaches database/sql.(*DB).Exec",
		18: "also reaches database/sql.(*DB).Ping",
		19: "also reaches database/sql.(*DB).Query",
		20: "also reaches os/exec.Command",
		21: "net/http.Get blocks",
	}
	for line, prefix := range want {
		if !strings.HasPrefix(got[line], prefix) {
			t.Errorf("store.go:%d: related %q, want one starting %q", line, got[line], prefix)
		}
	}
	if len(got) != len(want) {
		t.Errorf("related in store.go at lines %v, want exactly %d operations", got, len(want))
	}
}
