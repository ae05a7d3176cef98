package analyzer

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestThirdParty runs on a module whose library is vendored, so its files
// are third-party the way the module cache's are. The library packages
// reduce the false positives found on real services (docs/precision.md):
// redigo's pool channel, boombuler/barcode's byte pipeline, jwtauth's
// Token.AsMap(context.Background()). Their time.Sleep and a static call
// given Background() (gorm v1's Begin) must still be reported. Issue 10
// adds a client helper giving its http.NewRequest the caller's context
// later (class 1) and joins over computation (class 5: parallel resizing,
// a copy helper, singleflight around signing, errgroup), silent, next to
// joins over I/O and the module's own joins, reported.
func TestThirdParty(t *testing.T) {
	// The module is loaded from vendor/; GOPROXY is off under analysistest.
	t.Setenv("GOFLAGS", "-mod=vendor")
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "thirdparty"), Analyzer, "./app")
}

// TestIsThirdParty checks that the module information decides over file
// paths: a custom GOMODCACHE or a project under a directory named vendor
// must not change the verdict, and a locally replaced dependency is the
// user's own code.
func TestIsThirdParty(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	file := func(name string) *ast.File {
		f, err := parser.ParseFile(fset, name, "package p", 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	inVendor := file("/home/u/vendor/app/p.go")
	plain := file("/cache/example.com/lib@v1.0.0/p.go")
	tests := []struct {
		name string
		mod  *analysis.Module
		file *ast.File
		want bool
	}{
		{"main module under a vendor directory", &analysis.Module{Path: "app", Main: true}, inVendor, false},
		{"workspace module", &analysis.Module{Path: "app"}, inVendor, false},
		{"dependency in a custom GOMODCACHE", &analysis.Module{Path: "example.com/lib", Version: "v1.0.0"}, plain, true},
		{"dependency replaced by a directory", &analysis.Module{Path: "example.com/lib", Version: "v1.0.0",
			Replace: &analysis.Module{Path: "../lib"}}, plain, false},
		{"dependency replaced by another version", &analysis.Module{Path: "example.com/lib", Version: "v1.0.0",
			Replace: &analysis.Module{Path: "example.com/fork", Version: "v1.0.1"}}, plain, true},
		{"no module information, vendor path", nil, inVendor, true},
		{"no module information, plain path", nil, plain, false},
	}
	for _, tt := range tests {
		pass := &analysis.Pass{Fset: fset, Files: []*ast.File{tt.file}, Module: tt.mod}
		if got := isThirdParty(pass); got != tt.want {
			t.Errorf("%s: isThirdParty = %v, want %v", tt.name, got, tt.want)
		}
	}
}
