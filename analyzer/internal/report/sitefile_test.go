package report

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"
)

// TestAddSourceFile: the line table read from disk places every position
// of a file where the parser does, so a site "file:line:col" maps back to
// the exact place even when the FileSet had only a stand-in for the file.
func TestAddSourceFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.go")
	src := "package a\n\n// Unexported below.\n\nfunc f() {\n\tprintln(\"é\", 1)\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	parsed := token.NewFileSet()
	if _, err := parser.ParseFile(parsed, path, nil, 0); err != nil {
		t.Fatal(err)
	}
	var want *token.File
	parsed.Iterate(func(f *token.File) bool { want = f; return false })

	fset := token.NewFileSet()
	// A stand-in as an export-data importer makes it: two one-byte lines.
	stub := fset.AddFile(path, -1, 2)
	stub.SetLines([]int{0, 1})
	got := addSourceFile(fset, path)
	if got == nil || got == stub {
		t.Fatalf("addSourceFile = %v, want a new file", got)
	}
	if got.LineCount() != want.LineCount() || got.Size() != want.Size() {
		t.Fatalf("lines %d size %d, want %d and %d", got.LineCount(), got.Size(), want.LineCount(), want.Size())
	}
	for off := 0; off < want.Size(); off++ {
		w := want.Position(want.Pos(off))
		pos, ok := exactPos(fset, got, w.Line, w.Column)
		if !ok || fset.Position(pos) != w {
			t.Fatalf("offset %d: %v (ok %v), want %v", off, fset.Position(pos), ok, w)
		}
	}
	if _, ok := exactPos(fset, stub, 6, 2); ok {
		t.Errorf("the stand-in claims an exact place it does not have")
	}
	if addSourceFile(fset, filepath.Join(t.TempDir(), "missing.go")) != nil {
		t.Errorf("a missing file gave a line table")
	}
}
