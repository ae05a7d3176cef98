package driver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/cmd/syncio/driver"
)

const groupDir = "testdata/groupmod"

// chainAnalyzer reports, like syncio, each handler's call that leads to
// block: a call of fetch with the chain into fetch's own block call, and a
// direct block call with a chain of one hop. block inside fetch is no
// root's call and is not reported.
var chainAnalyzer = &analysis.Analyzer{
	Name:      "syncio",
	Doc:       "syncio (test double) reports calls that reach block.",
	URL:       "https://example.test/syncio",
	FactTypes: []analysis.Fact{new(marker)},
	Run: func(pass *analysis.Pass) (any, error) {
		var inFetch token.Pos
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "fetch" {
					inFetch = fd.Body.List[0].(*ast.ExprStmt).X.Pos()
				}
			}
		}
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Name.Name == "fetch" || fd.Body == nil {
					continue
				}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					id, _ := call.Fun.(*ast.Ident)
					diag := analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Category: "SIO001", URL: "https://example.test/SIO001.md"}
					switch {
					case id == nil:
						return true
					case id.Name == "fetch":
						diag.Message = fd.Name.Name + " calls fetch → block, which blocks without the request context (SIO001)"
						diag.Related = []analysis.RelatedInformation{{Pos: call.Pos(), Message: "calls fetch"}, {Pos: inFetch, Message: "block blocks without the request context"}}
					case id.Name == "block":
						diag.Message = fd.Name.Name + " calls block, which blocks without the request context (SIO001)"
						diag.Related = []analysis.RelatedInformation{{Pos: call.Pos(), Message: "block blocks without the request context"}}
					default:
						return true
					}
					pass.Report(diag)
					return true
				})
			}
		}
		return nil, nil
	},
}

func runGrouped(t *testing.T, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := driver.Run(driver.Config{Analyzer: chainAnalyzer, Rules: testRules, Dir: groupDir, Stdout: &out, Stderr: &errb}, args)
	return result{code, out.String(), errb.String()}
}

func groupLine(t *testing.T, substr string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(groupDir, "grouped", "grouped.go"))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, substr) {
			return i + 1
		}
	}
	t.Fatalf("grouped.go has no line containing %q", substr)
	return 0
}

// TestGroupByCause: three handlers reaching block through fetch are one
// finding at fetch's call, naming the other two; the handler that calls
// block itself keeps its own finding (issue 35, "one finding per thing to
// fix"). -group=false gives each path's finding, -json keeps each and
// says its cause, SARIF has one result with the others as related
// locations.
func TestGroupByCause(t *testing.T) {
	cause := fmt.Sprintf("grouped/grouped.go:%d:2", groupLine(t, "// cause"))
	own := fmt.Sprintf("grouped/grouped.go:%d:2", groupLine(t, "// own"))
	b := fmt.Sprintf("grouped/grouped.go:%d:", groupLine(t, "func B()"))
	c := fmt.Sprintf("grouped/grouped.go:%d:", groupLine(t, "func C()"))

	r := runGrouped(t, "./...")
	if r.code != driver.ExitFindings {
		t.Fatalf("exit %d, want %d\n%s", r.code, driver.ExitFindings, r.stderr)
	}
	for _, want := range []string{
		cause + ": 3 request paths reach this call; the first: A calls fetch → block",
		"\talso reached from " + b,
		"(B)\n",
		"\talso reached from " + c,
		own + ": D calls block",
		"syncio: SIO001 (2 findings, 4 request paths): https://example.test/SIO001.md",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("grouped output lacks %q:\n%s", want, r.stderr)
		}
	}
	if n := strings.Count(r.stderr, "(SIO001)\n"); n != 2 {
		t.Errorf("%d finding lines, want 2 (one per cause):\n%s", n, r.stderr)
	}

	r = runGrouped(t, "-group=false", "./...")
	if n := strings.Count(r.stderr, "(SIO001)\n"); n != 4 || strings.Contains(r.stderr, "request paths") {
		t.Errorf("-group=false: %d finding lines, want 4 and no grouping:\n%s", n, r.stderr)
	}

	r = runGrouped(t, "-json", "./...")
	var tree map[string]map[string][]struct {
		Posn, Cause string
		Paths       int
	}
	if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil {
		t.Fatalf("-json: %v\n%s", err, r.stdout)
	}
	diags := tree["example.com/groupmod/grouped"]["syncio"]
	withCause := 0
	for _, d := range diags {
		switch {
		case strings.HasSuffix(d.Cause, cause) && d.Paths == 3:
			withCause++
		case d.Cause != "" || d.Paths != 0:
			t.Errorf("-json: %s has cause %q, paths %d; want none (its own position is the cause)", d.Posn, d.Cause, d.Paths)
		}
	}
	if len(diags) != 4 || withCause != 3 {
		t.Errorf("-json: %d diagnostics, %d with fetch's cause; want 4 and 3:\n%s", len(diags), withCause, r.stdout)
	}

	sarifPath := filepath.Join(t.TempDir(), "out.sarif")
	runGrouped(t, "-sarif", sarifPath, "-sarif-root", ".", "./...")
	rep, err := sarif.Open(sarifPath)
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Runs[0].Results
	if len(res) != 2 {
		t.Fatalf("SARIF: %d results, want 2", len(res))
	}
	related := 0
	for _, x := range res {
		related += len(x.RelatedLocations)
	}
	if related != 2 {
		t.Errorf("SARIF: %d related locations, want the 2 other request paths", related)
	}
}
