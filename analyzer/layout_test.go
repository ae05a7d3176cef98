package analyzer

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// layers are the analyzer's units, lowest first. A unit may import only
// units listed before it, and none imports package analyzer itself, so data
// flows one way: knowledge → regions → resolve → the analyzer's rules and
// reports.
// A new directory under internal/ must be placed here.
var layers = []string{
	"internal/casetest",
	"internal/named",
	"internal/knowledge",
	"internal/regions",
	"internal/resolve",
}

// TestLayering parses the imports of every file of every unit under
// internal/ and fails when one imports a unit at its own level or above
// it, or the analyzer package.
func TestLayering(t *testing.T) {
	t.Parallel()
	const module = "github.com/syncio/syncio/analyzer"
	level := map[string]int{module: len(layers)}
	for i, l := range layers {
		level[module+"/"+l] = i
	}
	dirs, err := os.ReadDir("internal")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		unit := "internal/" + d.Name()
		self, ok := level[module+"/"+unit]
		if !ok {
			t.Errorf("%s is not in layers: place it among the units it may import", unit)
			continue
		}
		files, err := filepath.Glob(filepath.Join(unit, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Errorf("%s has no Go files", unit)
		}
		for _, f := range files {
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range af.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if path != module && !strings.HasPrefix(path, module+"/") {
					continue
				}
				l, known := level[path]
				if !known {
					t.Errorf("%s imports %s, which is no unit of the layering", f, path)
					continue
				}
				if l >= self {
					t.Errorf("%s imports %s: a unit may import only the units below it (%s)", f, path, strings.Join(layers[:self], ", "))
				}
			}
		}
	}
}

// ruleFree are the units that know no rule: who calls what (resolve),
// what is held where (regions) and types by name (named). knowledge is
// not among them: its tables say which rule a row reports.
var ruleFree = []string{"internal/named", "internal/regions", "internal/resolve"}

// TestUnitsKnowNoRule: no Go file of a rule-free unit (tests aside) holds
// a rule ID in a string: which rule an operation breaks is decided by the
// rules' files of package analyzer, never while resolving who calls what.
func TestUnitsKnowNoRule(t *testing.T) {
	t.Parallel()
	ruleID := regexp.MustCompile(`SIO[0-9]{3}`)
	var files []string
	for _, u := range ruleFree {
		fs, err := filepath.Glob(filepath.Join(u, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) == 0 {
			t.Errorf("%s has no Go files", u)
		}
		files = append(files, fs...)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && ruleID.MatchString(lit.Value) {
				t.Errorf("%s: %s names a rule, which a rule-free unit never decides", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
	}
}
