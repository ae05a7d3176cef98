package stdtrim

import (
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestTrimmedStdTypeChecks loads the standard packages request paths use
// most, with their whole import graph trimmed, and checks that every one
// still type-checks and that the trimming happened: a broken trim would
// make syncio skip every package that imports one (failed prerequisites).
func TestTrimmedStdTypeChecks(t *testing.T) {
	std := goroot(".", nil)
	if std == "" {
		t.Fatal("go env GOROOT gave nothing")
	}
	pats := []string{"net/http", "database/sql", "html/template", "os/exec", "log/slog", "math/rand/v2", "encoding/json", "crypto/tls", "net/smtp", "regexp", "go/types"}
	mode := packages.LoadAllSyntax
	pkgs, err := packages.Load(&packages.Config{Mode: mode, ParseFile: Parser(std, "")}, pats...)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		n++
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
	})
	if b := stdBroken(pkgs, std); b != "" {
		t.Errorf("stdBroken = %q on a graph that type-checks", b)
	}
	if n < 50 {
		t.Errorf("visited %d packages, want the whole graph of %v", n, pats)
	}
	var get *ast.FuncDecl
	for _, p := range pkgs {
		if p.PkgPath != "net/http" {
			continue
		}
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "Get" {
					get = fd
				}
			}
		}
	}
	if get == nil {
		t.Fatal("net/http.Get not found in the syntax")
	}
	if get.Body != nil {
		t.Error("net/http.Get kept its body: the standard library was not trimmed")
	}
}

// TestDeclParserKeepsWhatGoTypesNeeds type-checks a file under a fake
// GOROOT whose imports are used only in bodies, next to an init function,
// a generic function and a method of a generic type, which must keep theirs.
func TestDeclParserKeepsWhatGoTypesNeeds(t *testing.T) {
	src := `package p

import (
	"fmt"
	"math/rand/v2"
	"strings"
	str "strconv"
	"io"
)

var seed int

func init() { seed = rand.IntN(3) }

func Say(w io.Writer) { fmt.Fprintln(w, strings.ToUpper("x"), str.Itoa(seed)) }

func Map[T any](xs []T, f func(T) T) []T {
	for i := range xs {
		xs[i] = f(xs[i])
	}
	return xs
}

type Box[T any] struct{ v T }

func (b *Box[T]) Get() T { return b.v }

func Count() int { return len(fmt.Sprint(1)) }
`
	std := filepath.FromSlash("/fakeroot/src/")
	fset := token.NewFileSet()
	f, err := Parser(std, "")(fset, filepath.Join(std, "p", "p.go"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	bodies := map[string]bool{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			bodies[fd.Name.Name] = fd.Body != nil
		}
	}
	want := map[string]bool{"init": true, "Say": false, "Map": true, "Get": true, "Count": false}
	for name, kept := range want {
		if bodies[name] != kept {
			t.Errorf("%s: body kept = %v, want %v", name, bodies[name], kept)
		}
	}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("p", fset, []*ast.File{f}, nil); err != nil {
		t.Errorf("trimmed file does not type-check: %v", err)
	}

	// A file outside the distribution is parsed whole, comments included.
	g, err := Parser(std, "")(fset, filepath.FromSlash("/work/app/p.go"), []byte(src+"// note\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Comments) == 0 {
		t.Error("a module file lost its comments")
	}
	for _, d := range g.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
			t.Errorf("a module file lost the body of %s", fd.Name.Name)
		}
	}
}

// TestStdBrokenSeesATypeError: the fall-back to a full load must trigger on
// a type error in a package of the distribution, and only there.
func TestStdBrokenSeesATypeError(t *testing.T) {
	std := filepath.FromSlash("/fakeroot/src/")
	bad := &packages.Package{PkgPath: "net/url", GoFiles: []string{filepath.Join(std, "net/url/url.go")},
		Errors: []packages.Error{{Msg: `"path" imported and not used`, Kind: packages.TypeError}}}
	app := &packages.Package{PkgPath: "example.com/app", GoFiles: []string{"/work/app/main.go"},
		Errors: []packages.Error{{Msg: "undefined: x", Kind: packages.TypeError}}}
	want := `net/url: "path" imported and not used`
	if got := stdBroken([]*packages.Package{{PkgPath: "example.com/app", Imports: map[string]*packages.Package{"net/url": bad}}}, std); got != want {
		t.Errorf("stdBroken = %q, want %q: the package and its error, for the caller to name", got, want)
	}
	if stdBroken([]*packages.Package{app}, std) != "" {
		t.Error("the module's own type error counted as a broken trim")
	}
}
