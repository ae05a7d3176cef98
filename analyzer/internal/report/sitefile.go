package report

import (
	"bytes"
	"go/token"
	"os"
	"strconv"
	"sync"

	"github.com/syncio/syncio/analyzer/internal/paths"
)

// Sites in facts are "file:line:col" strings, written by the package that
// compiled the file. A driver that loads every package from source (the
// standalone command, golangci-lint) has that file in its FileSet; go vet
// (unitchecker) has only a stand-in built from export data, whose line
// table ends at the file's last exported object and whose lines are one
// byte long, or no file at all when the file declares nothing exported.
// Rather than drop or misplace a finding there, the real file's line table
// is read from disk and added to the FileSet.

// sourceLines is the line table of a file on disk, read once per process.
type sourceLines struct {
	once  sync.Once
	size  int
	lines []int // offsets of line starts; nil when the file cannot be read
}

// sourceLinesByPath maps a file path to its *sourceLines.
var sourceLinesByPath sync.Map

func linesOf(path string) *sourceLines {
	v, _ := sourceLinesByPath.LoadOrStore(path, &sourceLines{})
	sl := v.(*sourceLines)
	sl.once.Do(func() {
		b, err := os.ReadFile(path)
		if err != nil {
			return // the caller keeps what the FileSet knows
		}
		lines := []int{0}
		for off := 0; ; {
			i := bytes.IndexByte(b[off:], '\n')
			if i < 0 || off+i+1 >= len(b) {
				break
			}
			off += i + 1
			lines = append(lines, off)
		}
		sl.size, sl.lines = len(b), lines
	})
	return sl
}

// addSourceFile adds to fset a file named path with the line table of the
// file on disk, or returns nil when it cannot be read. FileSet.AddFile is
// safe for concurrent use; the line table is shared, never modified.
func addSourceFile(fset *token.FileSet, path string) *token.File {
	sl := linesOf(path)
	if sl.lines == nil || sl.size == 0 {
		return nil
	}
	f := fset.AddFile(path, -1, sl.size)
	if !f.SetLines(sl.lines) {
		return nil
	}
	return f
}

// exactPos returns the position of line:col in f, and whether f has that
// exact place (a stand-in file has the line but not the column).
func exactPos(fset *token.FileSet, f *token.File, line, col int) (token.Pos, bool) {
	if f == nil || line < 1 || line > f.LineCount() || col < 1 {
		return token.NoPos, false
	}
	pos := f.LineStart(line) + token.Pos(col-1)
	if int(pos) > f.Base()+f.Size() {
		return token.NoPos, false
	}
	if p := fset.Position(pos); p.Line == line && p.Column == col {
		return pos, true
	}
	return token.NoPos, false
}

// FileTable is the files of fset by name, the cache SitePos keeps the
// files it reads from disk in.
func FileTable(fset *token.FileSet) map[string]*token.File {
	files := map[string]*token.File{}
	fset.Iterate(func(f *token.File) bool {
		files[f.Name()] = f
		return true
	})
	return files
}

// SitePos maps a "file:line:col" site back to a position in fset, adding
// the file from disk to fset and files (FileTable's) when fset lacks it or
// knows it only as an export-data stand-in; token.NoPos when the site is
// malformed or its file cannot be read.
func SitePos(fset *token.FileSet, files map[string]*token.File, site string) token.Pos {
	rest, colStr, ok1 := paths.CutLast(site)
	name, lineStr, ok2 := paths.CutLast(rest)
	if !ok1 || !ok2 {
		return token.NoPos
	}
	line, err1 := strconv.Atoi(lineStr)
	col, err2 := strconv.Atoi(colStr)
	if err1 != nil || err2 != nil {
		return token.NoPos
	}
	f := files[name]
	if pos, ok := exactPos(fset, f, line, col); ok {
		return pos
	}
	if real := addSourceFile(fset, name); real != nil {
		files[name] = real
		if pos, ok := exactPos(fset, real, line, col); ok {
			return pos
		}
	}
	// The file cannot be read: keep the line of a stand-in file.
	if f != nil && line >= 1 && line <= f.LineCount() && fset.Position(f.LineStart(line)).Line == line {
		return f.LineStart(line)
	}
	return token.NoPos
}
