package knowledge

import (
	"go/build"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// StdPath reports whether path is a package of the Go distribution: a
// first element without a dot, and a directory under GOROOT (testdata and
// GOPATH-mode packages have dot-less paths too).
func StdPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") {
		return false
	}
	if v, ok := stdDirs.Load(path); ok {
		return v.(bool)
	}
	fi, err := os.Stat(filepath.Join(build.Default.GOROOT, "src", filepath.FromSlash(path)))
	std := err == nil && fi.IsDir()
	stdDirs.Store(path, std)
	return std
}

var stdDirs sync.Map

// KeyOf returns fn's key in the tables' syntax (Qualified by its import
// path).
func KeyOf(fn *types.Func) string { return Qualified(fn, fn.Pkg().Path()) }

// Qualified names fn as prefix.F, prefix.T.M or prefix.(*T).M.
func Qualified(fn *types.Func, prefix string) string {
	sig, _ := fn.Type().(*types.Signature)
	if sig != nil && sig.Recv() != nil {
		t := types.Unalias(sig.Recv().Type())
		ptr := false
		if p, ok := t.(*types.Pointer); ok {
			t, ptr = types.Unalias(p.Elem()), true
		}
		if n, ok := t.(*types.Named); ok && n.Obj() != nil {
			if ptr {
				return prefix + ".(*" + n.Obj().Name() + ")." + fn.Name()
			}
			return prefix + "." + n.Obj().Name() + "." + fn.Name()
		}
	}
	return prefix + "." + fn.Name()
}
