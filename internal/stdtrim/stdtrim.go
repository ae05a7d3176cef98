package stdtrim

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Load is packages.Load with the standard library's bodies trimmed (cfg's
// ParseFile is replaced). Should a package of the distribution then fail to
// type-check (a construct a future Go needs a body for), it loads again in
// full: slower, never wrong. retried then names that package and its first
// error, so that a caller can say why the run costs twice what it should
// (a silent retry once hid a trim bug that doubled every run on modules
// importing go/types).
func Load(cfg *packages.Config, patterns ...string) (initial []*packages.Package, retried string, err error) {
	std, deps := goDirs(cfg.Dir, cfg.Env)
	if std == "" {
		initial, err = packages.Load(cfg, patterns...)
		return initial, "", err
	}
	trimmed := *cfg
	trimmed.ParseFile = Parser(std, deps)
	initial, err = packages.Load(&trimmed, patterns...)
	if err != nil {
		return initial, "", err
	}
	if retried = stdBroken(initial, std); retried == "" {
		return initial, "", nil
	}
	initial, err = packages.Load(cfg, patterns...)
	return initial, retried, err
}

// stdBroken returns a package of the distribution in the graph that has a
// type error, which only the trimming can have caused, with its first
// error; "" when there is none.
func stdBroken(initial []*packages.Package, std string) string {
	broken := ""
	packages.Visit(initial, nil, func(p *packages.Package) {
		if broken != "" || len(p.GoFiles) == 0 || !strings.HasPrefix(p.GoFiles[0], std) {
			return
		}
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError {
				broken = p.PkgPath + ": " + e.Msg
				return
			}
		}
	})
	return broken
}

// goDirs returns the distribution's source directory and the module
// cache, each with a trailing separator, or "" for one the go command does
// not name. It asks the go command that go/packages runs, with the same
// directory and environment, so that a binary built with another toolchain
// still recognises the distribution's files.
func goDirs(dir string, env []string) (std, deps string) {
	cmd := exec.Command("go", "env", "GOROOT", "GOMODCACHE")
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return "", ""
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) == "" {
		return "", ""
	}
	std = filepath.Join(strings.TrimSpace(lines[0]), "src") + string(filepath.Separator)
	if len(lines) > 1 && strings.TrimSpace(lines[1]) != "" {
		deps = filepath.Clean(strings.TrimSpace(lines[1])) + string(filepath.Separator)
	}
	return std, deps
}

// goroot returns the distribution's source directory (see goDirs).
func goroot(dir string, env []string) string {
	std, _ := goDirs(dir, env)
	return std
}

// Parser returns a go/packages ParseFile that trims the bodies of files
// under stdSrc (a directory ending in a separator), empties the number
// tables (trimData) of those and of the files under depSrc (the module
// cache, "" for none), and parses every other file as go/packages would
// but without object resolution (ast.Ident.Obj, ast.File.Scope).
func Parser(stdSrc, depSrc string) func(*token.FileSet, string, []byte) (*ast.File, error) {
	return func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		if stdSrc == "" || !strings.HasPrefix(filename, stdSrc) {
			// Object resolution builds ast.Objects and scopes that no
			// reader of a load needs (go/types resolves names itself),
			// so it is left out, as for the standard library below.
			f, err := parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
			if err == nil && depSrc != "" && strings.HasPrefix(filename, depSrc) {
				trimData(f)
			}
			return f, err
		}
		f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
		if err != nil {
			return f, err
		}
		if !dotImports(f) {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && trimmable(fd) {
					fd.Body = nil
				}
			}
			blankUnused(f)
		}
		trimData(f)
		return f, nil
	}
}

// dotImports reports whether f imports a package with a dot (go/types
// imports internal/types/errors so). Whether only the bodies used such an
// import cannot be told from the syntax, since its names are unqualified,
// and an import left unused is a type error that made the whole load run
// again untrimmed; so such a file keeps its bodies.
func dotImports(f *ast.File) bool {
	for _, imp := range f.Imports {
		if imp.Name != nil && imp.Name.Name == "." {
			return true
		}
	}
	return false
}

// trimmable reports whether go/types accepts fd without its body: not an
// init function, and not generic (a function with type parameters, or a
// method of a generic type), since both must have one.
func trimmable(fd *ast.FuncDecl) bool {
	if fd.Name.Name == "init" && fd.Recv == nil {
		return false
	}
	if fd.Type.TypeParams != nil {
		return false
	}
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		t := fd.Recv.List[0].Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		switch ast.Unparen(t).(type) {
		case *ast.IndexExpr, *ast.IndexListExpr:
			return false
		}
	}
	return true
}

// blankUnused renames to _ the imports that only the dropped bodies used,
// which go/types would otherwise report as unused. A name used anywhere in
// what remains as a qualifier keeps its import, so a wrong guess can only
// keep one.
func blankUnused(f *ast.File) {
	used := map[string]bool{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		ast.Inspect(d, func(n ast.Node) bool {
			// A package name can only be the left of a qualified identifier.
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					used[id.Name] = true
				}
			}
			return true
		})
	}
	for _, imp := range f.Imports {
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		} else if p, err := strconv.Unquote(imp.Path.Value); err == nil {
			name = importName(p)
		}
		if name == "_" || name == "." || name == "" || used[name] {
			continue
		}
		imp.Name = &ast.Ident{NamePos: imp.Path.Pos(), Name: "_"}
	}
}

// importName is the package name the standard library gives an import
// path: its last element, without a major-version suffix (math/rand/v2).
func importName(p string) string {
	base := path.Base(p)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(p))
	}
	return base
}
