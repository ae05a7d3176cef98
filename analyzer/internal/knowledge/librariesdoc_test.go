package knowledge

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updateDoc = flag.Bool("update", false, "rewrite the generated listing of docs/rules/libraries.md from blocking.txt")

const (
	librariesDoc = "../../../docs/rules/libraries.md"
	rowsBegin    = "<!-- rows: generated from analyzer/internal/knowledge/blocking.txt by `go test ./analyzer/internal/knowledge -run TestLibrariesDoc -update`; do not edit by hand -->"
	rowsEnd      = "<!-- end of rows -->"
)

// renderRows lists every row of the table, consecutive rows with the same
// receiver (or package) and evidence in one line.
func renderRows(rows []Blocking) string {
	var sb strings.Builder
	sb.WriteString("| receiver or package | methods or functions | evidence |\n|---|---|---|\n")
	var recv, ev string
	var names []string
	flush := func() {
		if names != nil {
			sb.WriteString("| `" + recv + "` | " + strings.Join(names, ", ") + " | " + ev + " |\n")
		}
		names = nil
	}
	for _, r := range rows {
		cut := strings.LastIndex(r.Key, ".")
		rv, name := r.Key[:cut], r.Key[cut+1:]
		if rv != recv || r.Evidence != ev {
			flush()
			recv, ev = rv, r.Evidence
		}
		names = append(names, "`"+name+"`")
	}
	flush()
	return sb.String()
}

// versionRE finds the module@version (or Go release) an evidence field
// starts with.
var versionRE = regexp.MustCompile(`^(\S+@\S+|go\d+\.\d+(\.\d+)?) `)

// TestLibrariesDoc: docs/rules/libraries.md lists every key of the table
// (a section generated from it, compared here), and its prose names the
// version of every module the rows' evidence was read in.
func TestLibrariesDoc(t *testing.T) {
	rows, err := BuiltinBlocking()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.FromSlash(librariesDoc))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	before, rest, ok1 := strings.Cut(doc, rowsBegin+"\n")
	_, after, ok2 := strings.Cut(rest, rowsEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s: no generated section between %q and %q", librariesDoc, rowsBegin, rowsEnd)
	}
	want := before + rowsBegin + "\n" + renderRows(rows) + rowsEnd + after
	if *updateDoc {
		if err := os.WriteFile(filepath.FromSlash(librariesDoc), []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		doc = want
	}
	if doc != want {
		t.Errorf("%s: the generated listing differs from %s; run go test ./analyzer/internal/knowledge -run TestLibrariesDoc -update", librariesDoc, BlockingFile)
	}
	prose := before + after
	seen := map[string]bool{}
	for _, r := range rows {
		m := versionRE.FindStringSubmatch(r.Evidence)
		if m == nil {
			t.Errorf("%s:%d: evidence %q does not start with module@version or a Go release", BlockingFile, r.Line, r.Evidence)
			continue
		}
		v := m[1]
		if seen[v] || strings.HasPrefix(v, "go1") {
			continue
		}
		seen[v] = true
		if !strings.Contains(prose, "`"+v+"`") {
			t.Errorf("%s:%d: evidence read in %s, which the prose of %s does not name (as `%s`)", BlockingFile, r.Line, v, librariesDoc, v)
		}
	}
}
