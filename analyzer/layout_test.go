package analyzer

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// layers are the analyzer's units by level, lowest first. A unit may
// import only units of the levels before its own, so units of one level
// are siblings that know nothing of each other (the join and the
// reporter each read paths, neither the other), and none imports package
// analyzer itself, so data flows one way: knowledge → regions → resolve →
// the analyzer's rules and reports.
// A new directory under internal/ must be placed here.
var layers = [][]string{
	{"internal/casetest", "internal/standin"},
	{"seen"},
	{"internal/directive"},
	{"internal/named"},
	{"internal/knowledge"},
	{"internal/regions", "internal/config"},
	{"internal/resolve"},
	{"internal/dispatch"},
	{"internal/paths"},
	{"internal/dataflow", "internal/registry", "internal/branches", "internal/exits", "internal/ginsetting"},
	{"internal/rules"},
	{"internal/join", "internal/report"},
}

// TestLayering parses the imports of every file of every unit under
// internal/ and fails when one imports a unit at its own level or above
// it, or the analyzer package.
func TestLayering(t *testing.T) {
	t.Parallel()
	const module = "github.com/syncio/syncio/analyzer"
	level := map[string]int{module: len(layers)}
	for i, units := range layers {
		for _, u := range units {
			level[module+"/"+u] = i
		}
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
					var below []string
					for _, units := range layers[:self] {
						below = append(below, units...)
					}
					t.Errorf("%s imports %s: a unit may import only the units below its level (%s)", f, path, strings.Join(below, ", "))
				}
			}
		}
	}
}

// ruleFree are the units that know no rule: who calls what (resolve),
// calls through interfaces and stored funcs followed (dispatch),
// what is held where (regions), types by name (named) and what one body
// does with its values (dataflow). knowledge is not among them: its
// tables say which rule a row reports.
var ruleFree = []string{"internal/directive", "internal/named", "internal/regions", "internal/resolve", "internal/dispatch", "internal/dataflow", "internal/registry", "internal/branches", "internal/exits", "internal/ginsetting"}

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

// packageLayers are the layers of one package's analysis, lowest first
// (see pkgView): each holds the one before it in a named field.
var packageLayers = []string{"pkgView", "scanned", "runner"}

// layerLinks are the fields by which a layer holds those below it: a
// use of r.scanned.X or s.view.X is a use of X on that layer.
var layerLinks = map[string]bool{"view": true, "scanned": true}

// TestMethodsAtTheirLayer: every method of a layer of the package's
// analysis needs that layer: it reads one of the layer's own fields, or
// calls a method that does. The compiler keeps a lower layer from
// reaching up; this keeps a method from sitting higher than it needs,
// which would let the runner grow back into the hub every file reaches
// into. A method that fails here belongs on the layer the message names.
func TestMethodsAtTheirLayer(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	layerOf := map[string]int{}
	for i, l := range packageLayers {
		layerOf[l] = i
	}
	fieldLayer := map[string]int{} // a layer's own field → the layer
	type method struct {
		layer int
		pos   string
		uses  map[string]bool // r.X: fields and methods of any layer
	}
	methods := map[string]*method{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					ts, ok := sp.(*ast.TypeSpec)
					if !ok {
						continue
					}
					l, isLayer := layerOf[ts.Name.Name]
					st, isStruct := ts.Type.(*ast.StructType)
					if !isLayer || !isStruct {
						continue
					}
					for _, fl := range st.Fields.List {
						if len(fl.Names) == 0 {
							// Embedding would spread one method set over
							// several layers and hide, at a call, which
							// layer it touches.
							t.Errorf("%s: %s embeds %s: hold it in a named field", fset.Position(fl.Pos()), ts.Name.Name, types.ExprString(fl.Type))
						}
						for _, n := range fl.Names {
							if !layerLinks[n.Name] {
								fieldLayer[n.Name] = l
							}
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List[0].Names) == 0 {
					continue
				}
				star, ok := d.Recv.List[0].Type.(*ast.StarExpr)
				if !ok {
					continue
				}
				id, ok := star.X.(*ast.Ident)
				if !ok {
					continue
				}
				l, isLayer := layerOf[id.Name]
				if !isLayer {
					continue
				}
				recv := d.Recv.List[0].Names[0].Name
				m := &method{layer: l, pos: fset.Position(d.Pos()).String(), uses: map[string]bool{}}
				isRecv := func(e ast.Expr) bool {
					x, ok := e.(*ast.Ident)
					return ok && x.Name == recv
				}
				ast.Inspect(d.Body, func(n ast.Node) bool {
					se, ok := n.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					if isRecv(se.X) && !layerLinks[se.Sel.Name] {
						m.uses[se.Sel.Name] = true
					}
					// r.scanned.X, r.view.X, s.view.X
					if link, ok := se.X.(*ast.SelectorExpr); ok && isRecv(link.X) && layerLinks[link.Sel.Name] {
						m.uses[se.Sel.Name] = true
					}
					return true
				})
				methods[d.Name.Name] = m
			}
		}
	}
	if len(fieldLayer) == 0 || len(methods) == 0 {
		t.Fatalf("found %d layer fields and %d layer methods: the layer types moved or were renamed", len(fieldLayer), len(methods))
	}
	// need is the highest layer whose own fields a method reads,
	// through the methods it calls too.
	memo := map[string]int{}
	var need func(name string, onStack map[string]bool) int
	need = func(name string, onStack map[string]bool) int {
		if v, ok := memo[name]; ok {
			return v
		}
		if onStack[name] {
			return 0 // recursion: the cycle's other methods decide
		}
		onStack[name] = true
		defer delete(onStack, name)
		n := 0
		for u := range methods[name].uses {
			if l, ok := fieldLayer[u]; ok {
				n = max(n, l)
			} else if _, ok := methods[u]; ok {
				n = max(n, need(u, onStack))
			}
		}
		return n
	}
	for name, m := range methods {
		memo = map[string]int{}
		if n := need(name, map[string]bool{}); n < m.layer {
			t.Errorf("%s: %s is a method of %s but reads nothing above %s: make it a method of %s",
				m.pos, name, packageLayers[m.layer], packageLayers[n], packageLayers[n])
		}
	}
	for i, l := range packageLayers {
		n := 0
		for _, m := range methods {
			if m.layer == i {
				n++
			}
		}
		t.Logf("%s: %d methods", l, n)
	}
}
