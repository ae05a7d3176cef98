package paths

import (
	"path/filepath"
	"strings"
)

// CutLast cuts a "file:line:col" site (or its "file:line" rest) at its
// last colon.
func CutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// ShortSite is a "file:line:col" site with the file's base name.
func ShortSite(site string) string {
	rest, col, ok1 := CutLast(site)
	file, line, ok2 := CutLast(rest)
	if !ok1 || !ok2 {
		return site
	}
	return filepath.Base(file) + ":" + line + ":" + col
}
