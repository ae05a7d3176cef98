package analyzer

import (
	"go/ast"
	"go/token"
	"strings"
)

const (
	ignorePrefix  = "//syncio:ignore"
	handlerMarker = "//syncio:handler"
	reasonSep     = "--"
)

// ignore is one parsed //syncio:ignore comment.
type ignore struct {
	rules  map[string]bool
	ids    []string // as written, for error messages
	reason string
	pos    token.Pos
	end    token.Pos
	// used is set when the ignore hides a finding (or stops a helper from
	// propagating one); ignores left unused are reported as stale.
	used bool
	// bad is set when the ignore itself is malformed and already reported.
	bad bool
}

// parseIgnore parses "//syncio:ignore SIO001,SIO002 -- reason". ok is false
// when text is not an ignore directive at all.
func parseIgnore(c *ast.Comment) (ig *ignore, ok bool) {
	rest, found := strings.CutPrefix(c.Text, ignorePrefix)
	if !found || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return nil, false
	}
	ig = &ignore{rules: map[string]bool{}, pos: c.Pos(), end: c.End()}
	// A nested "//" starts a trailing note that is not part of the directive.
	rest, _, _ = strings.Cut(rest, "//")
	idsPart, reason, _ := strings.Cut(rest, reasonSep)
	ig.reason = strings.TrimSpace(reason)
	for _, id := range strings.FieldsFunc(idsPart, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		ig.rules[id] = true
		ig.ids = append(ig.ids, id)
	}
	return ig, true
}

// directives indexes the //syncio: comments of a package by file and line.
type directives struct {
	fset   *token.FileSet
	byLine map[string]map[int][]*ignore
	byPos  map[token.Pos]*ignore
	all    []*ignore
}

func newDirectives(fset *token.FileSet, files []*ast.File) *directives {
	d := &directives{fset: fset, byLine: map[string]map[int][]*ignore{}, byPos: map[token.Pos]*ignore{}}
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				ig, ok := parseIgnore(c)
				if !ok {
					continue
				}
				p := fset.Position(c.Pos())
				lines := d.byLine[p.Filename]
				if lines == nil {
					lines = map[int][]*ignore{}
					d.byLine[p.Filename] = lines
				}
				lines[p.Line] = append(lines[p.Line], ig)
				d.all = append(d.all, ig)
				d.byPos[c.Pos()] = ig
			}
		}
	}
	return d
}

// handler reports whether a doc comment marks a custom request root.
func (d *directives) handler(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if c.Text == handlerMarker || strings.HasPrefix(c.Text, handlerMarker+" ") {
			return true
		}
	}
	return false
}

// funcIgnores returns the ignores of a function's doc comment.
func (d *directives) funcIgnores(doc *ast.CommentGroup) []*ignore {
	if doc == nil {
		return nil
	}
	var igs []*ignore
	for _, c := range doc.List {
		if ig := d.byPos[c.Pos()]; ig != nil {
			igs = append(igs, ig)
		}
	}
	return igs
}

// funcSuppressed reports whether one of a function's doc-comment ignores
// hides rule, and marks it used.
func funcSuppressed(igs []*ignore, rule string) bool {
	for _, ig := range igs {
		if ig.rules[rule] {
			ig.used = true
			return true
		}
	}
	return false
}

// suppressed reports whether rule is ignored at pos by a comment on the
// same line or the line above.
func (d *directives) suppressed(pos token.Pos, rule string) bool {
	if !pos.IsValid() {
		return false
	}
	p := d.fset.Position(pos)
	lines := d.byLine[p.Filename]
	for _, line := range []int{p.Line, p.Line - 1} {
		for _, ig := range lines[line] {
			if ig.rules[rule] {
				ig.used = true
				return true
			}
		}
	}
	return false
}
