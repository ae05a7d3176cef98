package knowledge

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var updateDoc = flag.Bool("update", false, "rewrite the generated listings of docs/rules/libraries.md (from blocking.txt and calls.txt) and docs/frameworks.md (from routes.txt)")

const (
	librariesDoc = "../../../docs/rules/libraries.md"
	updateCmd    = "`go test ./analyzer/internal/knowledge -run TestLibrariesDoc -update`"
)

// docSection is one generated listing of docs/rules/libraries.md: the rows
// of one kind, between its begin and end comments.
type docSection struct {
	kind       Kind
	begin, end string
	render     func([]Row) string
}

var docSections = []docSection{
	{KindBlocking, "<!-- rows: generated from analyzer/internal/knowledge/blocking.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of rows -->", renderRows},
	{KindClient, "<!-- client rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of client rows -->",
		renderOne("constructor", func(r Row) string { return r.Builds })},
	{KindWait, "<!-- wait rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of wait rows -->", renderWaits},
	{KindFile, "<!-- file rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of file rows -->", renderRows},
	{KindIO, "<!-- io rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of io rows -->", renderRows},
	{KindMemory, "<!-- memory rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of memory rows -->", renderRows},
	{KindNoIO, "<!-- noio rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of noio rows -->", renderRows},
	{KindExit, "<!-- exit rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of exit rows -->", renderRows},
	{KindCallback, "<!-- callback rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of callback rows -->", renderCallbacks},
	{KindGo, "<!-- go rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of go rows -->", renderRows},
	{KindFinisher, "<!-- finisher rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of finisher rows -->", renderRows},
	{KindNoQuery, "<!-- noquery rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of noquery rows -->", renderRows},
	{KindOptIn, "<!-- optin rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of optin rows -->", renderRows},
	{KindInMemory, "<!-- inmemory rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of inmemory rows -->", renderRows},
	{KindServe, "<!-- serve rows: generated from analyzer/internal/knowledge/calls.txt by " + updateCmd + "; do not edit by hand -->", "<!-- end of serve rows -->", renderRows},
}

// renderWaits lists the wait rows with their message and, for a wait
// judged by the work it joins, what it joins.
func renderWaits(rows []Row) string {
	var sb strings.Builder
	sb.WriteString("| call | message | joins | evidence |\n|---|---|---|---|\n")
	for _, r := range rows {
		sb.WriteString("| `" + r.Key + "` | " + r.Hint + " | " + r.Joins + " | " + r.Evidence + " |\n")
	}
	return sb.String()
}

// renderCallbacks lists the callback rows with the parameters they call
// and whether they run once.
func renderCallbacks(rows []Row) string {
	var sb strings.Builder
	sb.WriteString("| function | params | runs | evidence |\n|---|---|---|---|\n")
	for _, r := range rows {
		runs := "every call"
		if r.Runs != "" {
			runs = r.Runs
		}
		sb.WriteString("| `" + r.Key + "` | " + r.Params + " | " + runs + " | " + r.Evidence + " |\n")
	}
	return sb.String()
}

// renderRows lists every row of the table, consecutive rows with the same
// receiver (or package) and evidence in one line.
func renderRows(rows []Row) string {
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

// renderOne lists every row on a line of its own, with the field its
// kind's messages show.
func renderOne(what string, field func(Row) string) func([]Row) string {
	return func(rows []Row) string {
		var sb strings.Builder
		sb.WriteString("| " + what + " | message | evidence |\n|---|---|---|\n")
		for _, r := range rows {
			sb.WriteString("| `" + r.Key + "` | " + field(r) + " | " + r.Evidence + " |\n")
		}
		return sb.String()
	}
}

// versionRE finds the module@version (or Go release) an evidence field
// starts with.
var versionRE = regexp.MustCompile(`^(\S+@\S+|go\d+\.\d+(\.\d+)?) `)

// TestLibrariesDoc: docs/rules/libraries.md lists every row of the tables,
// one generated section per kind (compared here), and its prose names the
// version of every module the rows' evidence was read in.
func TestLibrariesDoc(t *testing.T) {
	rows, err := BuiltinRows()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.FromSlash(librariesDoc))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, k := range append(append([]Kind(nil), kinds...), tableKinds...) {
		if k == KindRoute {
			continue // routes.txt's rows are docs/frameworks.md's (TestFrameworksDoc)
		}
		if !slices.ContainsFunc(docSections, func(s docSection) bool { return s.kind == k }) {
			t.Errorf("kind %s has no generated section in %s (docSections)", k, librariesDoc)
		}
	}
	want, prose := doc, ""
	for _, s := range docSections {
		before, rest, ok1 := strings.Cut(want, s.begin+"\n")
		_, after, ok2 := strings.Cut(rest, s.end)
		if !ok1 || !ok2 {
			t.Fatalf("%s: no generated section between %q and %q", librariesDoc, s.begin, s.end)
		}
		var of []Row
		for _, r := range rows {
			if r.Kind == s.kind {
				of = append(of, r)
			}
		}
		want = before + s.begin + "\n" + s.render(of) + s.end + after
	}
	prose = want
	for _, s := range docSections {
		before, rest, _ := strings.Cut(prose, s.begin+"\n")
		_, after, _ := strings.Cut(rest, s.end)
		prose = before + after
	}
	if *updateDoc {
		if err := os.WriteFile(filepath.FromSlash(librariesDoc), []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		doc = want
	}
	if doc != want {
		t.Errorf("%s: a generated listing differs from %s or %s; run %s", librariesDoc, BlockingFile, CallsFile, updateCmd)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		m := versionRE.FindStringSubmatch(r.Evidence)
		if m == nil {
			t.Errorf("%s:%d: evidence %q does not start with module@version or a Go release", r.File, r.Line, r.Evidence)
			continue
		}
		v := m[1]
		if seen[v] || strings.HasPrefix(v, "go1") {
			continue
		}
		seen[v] = true
		if !strings.Contains(prose, "`"+v+"`") {
			t.Errorf("%s:%d: evidence read in %s, which the prose of %s does not name (as `%s`)", r.File, r.Line, v, librariesDoc, v)
		}
	}
}
