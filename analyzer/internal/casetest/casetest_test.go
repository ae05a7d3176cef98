package casetest

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
)

type marked struct{}

func (*marked) AFact()         {}
func (*marked) String() string { return "marked" }

// calls reports every call to a function named bad, marks bad with a
// fact, and reports each comment that starts with //lint:note.
var calls = &analysis.Analyzer{
	Name:      "calls",
	Doc:       "test analyzer",
	FactTypes: []analysis.Fact{new(marked)},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					if n.Name.Name == "bad" {
						pass.ExportObjectFact(pass.TypesInfo.Defs[n.Name].(*types.Func), new(marked))
					}
				case *ast.CallExpr:
					if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "bad" {
						pass.Report(analysis.Diagnostic{Pos: n.Pos(), Message: "call to bad", SuggestedFixes: []analysis.SuggestedFix{{
							Message:   "call good",
							TextEdits: []analysis.TextEdit{{Pos: id.Pos(), End: id.End(), NewText: []byte("good")}},
						}}})
					}
				}
				return true
			})
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					if strings.HasPrefix(c.Text, "//lint:note") {
						pass.Reportf(c.Pos(), "directive")
					}
				}
			}
		}
		return nil, nil
	},
}

// record is a testing.TB that keeps what the checker reports.
type record struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *record) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *record) Helper() {}

var tree = New("testdata")

func TestMatches(t *testing.T) {
	r := &record{TB: t}
	res := tree.Run(r, calls, "calls")
	if len(r.errs) != 0 {
		t.Errorf("expectations that hold were reported: %q", r.errs)
	}
	if len(res) != 1 || len(res[0].Diagnostics) != 2 {
		t.Fatalf("results %+v: want one package with two diagnostics", res)
	}
}

// TestMismatches: a diagnostic with no want, a want with no diagnostic and
// a diagnostic that matches its line's pattern under another text are
// each an error, as under analysistest.
func TestMismatches(t *testing.T) {
	r := &record{TB: t}
	tree.Run(r, calls, "broken")
	want := []string{
		"broken.go:6:2: diagnostic \"call to bad\" matches none of `^call to good$`",
		"broken.go:7:2: unexpected diagnostic: call to bad",
		"broken.go:6: no diagnostic matching `^call to good$` was reported",
		"broken.go:8: no diagnostic matching `call to good` was reported",
		"broken.go:3:6: unexpected fact of bad: marked",
	}
	got := strings.Join(r.errs, "\n")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("missing error %q in:\n%s", w, got)
		}
	}
	if len(r.errs) != len(want) {
		t.Errorf("%d errors, want %d:\n%s", len(r.errs), len(want), got)
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  bool
	}{
		{in: ` "a" ` + "`b`", want: []string{":a", ":b"}},
		{in: ` f:"x" "y"`, want: []string{"f:x", ":y"}},
		{in: ` f "x"`, err: true},
		{in: ` f:`, err: true},
		{in: ` "("`, err: true},
	} {
		got, err := parse(c.in)
		if (err != nil) != c.err {
			t.Errorf("parse(%q): error %v, want error %v", c.in, err, c.err)
			continue
		}
		var s []string
		for _, e := range got {
			s = append(s, e.name+":"+e.rx.String())
		}
		if !c.err && !reflect.DeepEqual(s, c.want) {
			t.Errorf("parse(%q) = %q, want %q", c.in, s, c.want)
		}
	}
}

// TestFixes: each file's fixes, applied together, must give its golden
// file; a golden file that differs is an error naming the file.
func TestFixes(t *testing.T) {
	r := &record{TB: t}
	tree.RunWithFixes(r, calls, "fixme")
	if len(r.errs) != 0 {
		t.Errorf("fixes that match their golden file were reported: %q", r.errs)
	}
	r = &record{TB: t}
	tree.RunWithFixes(r, calls, "fixwrong")
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "fixwrong.go: fixed file differs from") {
		t.Errorf("a golden file that differs: errors %q, want one naming fixwrong.go", r.errs)
	}
}
