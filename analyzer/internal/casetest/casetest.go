// Package casetest runs an analyzer over the testdata cases of a GOPATH
// tree and checks them against their "// want" comments, like
// analysistest.Run, but loads and type-checks the tree once per test
// binary instead of once per call.
//
// analysistest.Run loads the standard library from source for every call;
// with forty-odd cases that import net/http, the analyzer's tests spent
// most of their time (and, under -race, past go test's default 10-minute
// timeout) type-checking net/http over and over. Each Run here analyses
// the shared, read-only packages afresh, so facts never leak from one
// case to another.
package casetest

import (
	"fmt"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"text/scanner"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/syncio/syncio/internal/stdtrim"
)

// Tree is the set of packages under dir/src, loaded on first use.
type Tree struct {
	dir  string
	once sync.Once
	pkgs []*packages.Package
	err  error
}

// New returns the tree rooted at dir (a GOPATH: its packages are under
// dir/src). Nothing is loaded until the first Run.
func New(dir string) *Tree {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // the go command takes only an absolute GOPATH
	}
	return &Tree{dir: dir}
}

// Result is what one root package's analysis gave.
type Result struct {
	Pkg         *types.Package
	Fset        *token.FileSet
	Diagnostics []analysis.Diagnostic
	Result      any
	Err         error
	Action      *checker.Action
}

func (tr *Tree) load() {
	src := filepath.Join(tr.dir, "src")
	var paths []string
	tr.err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, err := filepath.Rel(src, filepath.Dir(path))
		if err != nil {
			return err
		}
		paths = append(paths, filepath.ToSlash(rel))
		return nil
	})
	if tr.err != nil {
		return
	}
	sort.Strings(paths)
	paths = slices.Compact(paths)
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo |
			packages.NeedDeps | packages.NeedModule,
		Dir:   tr.dir,
		Tests: true,
		Env:   append(os.Environ(), "GOPATH="+tr.dir, "GO111MODULE=off", "GOWORK=off"),
	}
	// The analyzer returns at once on the standard library, so its bodies
	// are left out: most of the load's time and memory.
	tr.pkgs, _, tr.err = stdtrim.Load(cfg, paths...)
}

// roots returns the loaded packages a pattern names: the package, its
// test variant and its external test package, as analysistest loads them.
// A pattern ending in "/..." names every package below it.
func (tr *Tree) roots(pattern string) []*packages.Package {
	var out []*packages.Package
	prefix, tree := strings.CutSuffix(pattern, "/...")
	for _, p := range tr.pkgs {
		path := strings.TrimSuffix(strings.TrimSuffix(p.PkgPath, ".test"), "_test")
		if path == pattern || tree && (path == prefix || strings.HasPrefix(path, prefix+"/")) {
			out = append(out, p)
		}
	}
	return out
}

// Packages returns the loaded packages the patterns name, test variants
// included. They are shared: read them, never change them.
func (tr *Tree) Packages(t testing.TB, patterns ...string) []*packages.Package {
	t.Helper()
	tr.once.Do(tr.load)
	if tr.err != nil {
		t.Fatalf("loading %s: %v", tr.dir, tr.err)
	}
	var pkgs []*packages.Package
	for _, pat := range patterns {
		rs := tr.roots(pat)
		if len(rs) == 0 {
			t.Fatalf("no package under %s/src matches %q", tr.dir, pat)
		}
		pkgs = append(pkgs, rs...)
	}
	return pkgs
}

// Run analyses the packages the patterns name with a and checks every
// diagnostic and fact against the roots' "// want" comments, as
// analysistest.Run does.
func (tr *Tree) Run(t testing.TB, a *analysis.Analyzer, patterns ...string) []*Result {
	t.Helper()
	pkgs := tr.Packages(t, patterns...)
	if !a.RunDespiteErrors {
		packages.Visit(pkgs, nil, func(p *packages.Package) {
			for _, err := range p.Errors {
				t.Log(err)
			}
		})
	}
	g, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, &checker.Options{SanityCheck: true})
	if err != nil {
		t.Fatalf("analysing %s: %v", patterns, err)
	}
	var out []*Result
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Errorf("analysing %s: %v", act.Package.ID, act.Err)
		} else {
			check(t, act)
		}
		out = append(out, &Result{
			Pkg: act.Package.Types, Fset: act.Package.Fset, Diagnostics: act.Diagnostics,
			Result: act.Result, Err: act.Err, Action: act,
		})
	}
	return out
}

// expectation is one pattern of a "// want" comment: a diagnostic when
// name is "", else a fact of the object called name ("package" for a
// package fact).
type expectation struct {
	name string
	rx   *regexp.Regexp
}

type line struct {
	file string
	n    int
}

// check matches the action's diagnostics and facts with the expectations
// written in its files; each expectation is used once.
func check(t testing.TB, act *checker.Action) {
	t.Helper()
	fset := act.Package.Fset
	want := map[line][]expectation{}
	for _, f := range act.Package.Syntax {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				text := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(c.Text, "//"), "/*"), "*/"))
				// A directive under test carries its expectation in the
				// same comment: //syncio:ignore SIO001 // want "…".
				if i := strings.Index(text, "// want"); i >= 0 {
					text = text[i+len("// "):]
				}
				rest, ok := strings.CutPrefix(text, "want")
				if !ok {
					continue
				}
				pos := fset.Position(c.Pos())
				exps, err := parse(rest)
				if err != nil {
					t.Errorf("%s: want comment: %v", pos, err)
					continue
				}
				k := line{pos.Filename, pos.Line}
				want[k] = append(want[k], exps...)
			}
		}
	}
	match := func(pos token.Position, name, what, msg string) {
		k := line{pos.Filename, pos.Line}
		var tried []string
		for i, e := range want[k] {
			if e.name != name {
				continue
			}
			if e.rx.MatchString(msg) {
				want[k] = append(want[k][:i], want[k][i+1:]...)
				return
			}
			tried = append(tried, "`"+e.rx.String()+"`")
		}
		if tried == nil {
			t.Errorf("%s: unexpected %s: %s", pos, what, msg)
			return
		}
		t.Errorf("%s: %s %q matches none of %s", pos, what, msg, strings.Join(tried, ", "))
	}
	for _, d := range act.Diagnostics {
		match(fset.Position(d.Pos), "", "diagnostic", d.Message)
	}
	for _, pf := range act.AllPackageFacts() {
		if _, ok := pf.Fact.(interface{ CarriesFacts() }); ok {
			// It holds other packages' facts, passed on for go vet
			// (join.CarriedFact): nothing of this package.
			continue
		}
		if pf.Package == act.Package.Types && len(act.Package.Syntax) > 0 {
			pos := fset.Position(act.Package.Syntax[0].Pos())
			pos.Line, pos.Column = 1, 1
			match(pos, "package", "package fact", fmt.Sprint(pf.Fact))
		}
	}
	ofs := act.AllObjectFacts()
	sort.Slice(ofs, func(i, j int) bool { return ofs[i].Object.Pos() < ofs[j].Object.Pos() })
	for _, of := range ofs {
		if of.Object.Pkg() == act.Package.Types {
			match(fset.Position(of.Object.Pos()), of.Object.Name(), "fact of "+of.Object.Name(), fmt.Sprint(of.Fact))
		}
	}
	var left []string
	for k, es := range want {
		for _, e := range es {
			what := "diagnostic"
			if e.name != "" {
				what = "fact of " + e.name
			}
			left = append(left, fmt.Sprintf("%s:%d: no %s matching `%s` was reported", k.file, k.n, what, e.rx))
		}
	}
	sort.Strings(left)
	for _, l := range left {
		t.Errorf("%s", l)
	}
}

// parse reads the patterns after "want": a sequence of Go string
// literals, each optionally preceded by "name:" for a fact.
func parse(text string) ([]expectation, error) {
	var s scanner.Scanner
	s.Init(strings.NewReader(text))
	s.Mode = scanner.ScanIdents | scanner.ScanStrings | scanner.ScanRawStrings
	s.Error = func(*scanner.Scanner, string) {}
	var out []expectation
	name := ""
	for tok := s.Scan(); tok != scanner.EOF; tok = s.Scan() {
		switch tok {
		case scanner.Ident:
			id := s.TokenText()
			if name != "" || s.Scan() != ':' {
				return nil, fmt.Errorf("%s: want name:\"pattern\"", id)
			}
			name = id
		case scanner.String, scanner.RawString:
			lit := s.TokenText()
			var pat string
			if tok == scanner.RawString {
				pat = lit[1 : len(lit)-1]
			} else {
				var err error
				if pat, err = strconv.Unquote(lit); err != nil {
					return nil, err
				}
			}
			rx, err := regexp.Compile(pat)
			if err != nil {
				return nil, err
			}
			out = append(out, expectation{name: name, rx: rx})
			name = ""
		default:
			return nil, fmt.Errorf("unexpected %q", s.TokenText())
		}
	}
	if name != "" {
		return nil, fmt.Errorf("%s: has no pattern", name)
	}
	return out, nil
}
