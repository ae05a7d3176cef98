package knowledge

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const (
	frameworksDoc   = "../../../docs/frameworks.md"
	frameworksCmd   = "`go test ./analyzer/internal/knowledge -run TestFrameworksDoc -update`"
	frameworksBegin = "<!-- registrations: generated from analyzer/internal/knowledge/routes.txt by " + frameworksCmd + "; do not edit by hand -->"
	frameworksEnd   = "<!-- end of registrations -->"
)

// renderRegistrations is the registration table of docs/frameworks.md: a
// line per framework and import path, its router types with the same
// calls together, each call list with its handler argument, and the
// versions the rows' evidence was read in (readIn, by import path).
func renderRegistrations(regs []Registration, readIn map[string][]string) string {
	var sb strings.Builder
	sb.WriteString("| framework | import path | router types | registration calls (handler argument) | read in |\n|---|---|---|---|---|\n")
	type group struct {
		framework, path string
		types           []string // in table order
		calls           map[string]string
	}
	var groups []*group
	for _, r := range regs {
		if len(groups) == 0 || groups[len(groups)-1].framework != r.Framework || groups[len(groups)-1].path != r.Path {
			groups = append(groups, &group{framework: r.Framework, path: r.Path, calls: map[string]string{}})
		}
		g := groups[len(groups)-1]
		if !slices.Contains(g.types, r.Type) {
			g.types = append(g.types, r.Type)
		}
		if g.calls[r.Type] != "" {
			g.calls[r.Type] += "; "
		}
		if r.Field {
			g.calls[r.Type] += renderNames(r.Names) + " (field)"
			continue
		}
		g.calls[r.Type] += renderNames(r.Names) + " (" + ordinal(r.Handler+1)
		if r.Chain {
			g.calls[r.Type] += " on"
		}
		g.calls[r.Type] += ")"
	}
	for _, g := range groups {
		// Types registering the same calls share a line.
		var seen []string
		byCalls := map[string][]string{}
		for _, t := range g.types {
			c := g.calls[t]
			if byCalls[c] == nil {
				seen = append(seen, c)
			}
			name := "`" + t + "`"
			if t == "" {
				name = "package functions"
			}
			byCalls[c] = append(byCalls[c], name)
		}
		for _, c := range seen {
			sb.WriteString("| " + g.framework + " | `" + g.path + "` | " + strings.Join(byCalls[c], ", ") + " | " + c + " | `" + strings.Join(readIn[g.path], "`, `") + "` |\n")
		}
	}
	return sb.String()
}

// verbs are the HTTP methods that routers name their registration
// methods after, in the order renderNames shortens a run of them.
var (
	verbsUpper = []string{"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "CONNECT", "TRACE"}
	verbsTitle = []string{"Get", "Post", "Put", "Delete", "Patch", "Head", "Options", "Connect", "Trace"}
)

// renderNames lists call names, a run of three or more HTTP verbs in
// their usual order as its first and last ("`GET`…`OPTIONS`").
func renderNames(names []string) string {
	var out []string
	for _, verbs := range [][]string{verbsUpper, verbsTitle} {
		n := 0
		for n < len(names) && n < len(verbs) && names[n] == verbs[n] {
			n++
		}
		if n >= 3 {
			out = append(out, "`"+names[0]+"`…`"+names[n-1]+"`")
			names = names[n:]
			break
		}
	}
	for _, n := range names {
		out = append(out, "`"+n+"`")
	}
	return strings.Join(out, ", ")
}

// ordinal is "1st", "2nd", "3rd", …
func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return strconv.Itoa(n) + "th"
}

// TestFrameworksDoc: docs/frameworks.md's table of registration calls is
// routes.txt (Registrations), rendered between its begin and end
// comments, with the module versions (or Go release) its evidence was
// read in.
func TestFrameworksDoc(t *testing.T) {
	if _, err := ParseRegistrations(RoutesFile, routesTable); err != nil {
		t.Fatal(err)
	}
	rows, _ := ParseTable(RoutesFile, routesTable)
	readIn := map[string][]string{}
	for _, r := range rows {
		m := versionRE.FindStringSubmatch(r.Evidence)
		if m == nil {
			t.Errorf("%s:%d: evidence %q does not start with module@version or a Go release", r.File, r.Line, r.Evidence)
			continue
		}
		path, _, _ := splitKey(r.Key)
		if !slices.Contains(readIn[path], m[1]) {
			readIn[path] = append(readIn[path], m[1])
		}
	}
	raw, err := os.ReadFile(filepath.FromSlash(frameworksDoc))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	before, rest, ok1 := strings.Cut(doc, frameworksBegin+"\n")
	_, after, ok2 := strings.Cut(rest, frameworksEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s: no generated section between %q and %q", frameworksDoc, frameworksBegin, frameworksEnd)
	}
	want := before + frameworksBegin + "\n" + renderRegistrations(Registrations(), readIn) + frameworksEnd + after
	if *updateDoc {
		if err := os.WriteFile(filepath.FromSlash(frameworksDoc), []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		doc = want
	}
	if doc != want {
		t.Errorf("%s: the registration table differs from %s; run %s", frameworksDoc, RoutesFile, frameworksCmd)
	}
}
