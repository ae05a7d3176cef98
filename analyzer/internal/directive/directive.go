// Package directive reads the //syncio: comments of a package: the
// ignores (//syncio:ignore SIO001 -- reason), by line and by doc comment,
// and the //syncio:handler marker. It knows no rule: an ignore names rule
// IDs as written, and the reporter judges them.
package directive

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

// Ignore is one parsed //syncio:ignore comment.
type Ignore struct {
	Rules  map[string]bool
	IDs    []string // as written, for error messages
	Reason string
	Pos    token.Pos
	End    token.Pos
	// Used is set when the ignore hides a finding (or stops a helper from
	// propagating one); ignores left unused are reported as stale.
	Used bool
	// Bad is set when the ignore itself is malformed and already reported.
	Bad bool
}

// Parse parses "//syncio:ignore SIO001,SIO002 -- reason". ok is false
// when text is not an ignore directive at all.
func Parse(c *ast.Comment) (ig *Ignore, ok bool) {
	rest, found := strings.CutPrefix(c.Text, ignorePrefix)
	if !found || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return nil, false
	}
	ig = &Ignore{Rules: map[string]bool{}, Pos: c.Pos(), End: c.End()}
	// A nested "//" starts a trailing note that is not part of the directive.
	rest, _, _ = strings.Cut(rest, "//")
	idsPart, reason, _ := strings.Cut(rest, reasonSep)
	ig.Reason = strings.TrimSpace(reason)
	for _, id := range strings.FieldsFunc(idsPart, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		ig.Rules[id] = true
		ig.IDs = append(ig.IDs, id)
	}
	return ig, true
}

// Index indexes the //syncio: comments of a package by file and line.
type Index struct {
	fset   *token.FileSet
	byLine map[string]map[int][]*Ignore
	byPos  map[token.Pos]*Ignore
	All    []*Ignore // in source order, for the stale and bad ones
}

// New indexes the directives of files.
func New(fset *token.FileSet, files []*ast.File) *Index {
	d := &Index{fset: fset, byLine: map[string]map[int][]*Ignore{}, byPos: map[token.Pos]*Ignore{}}
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				ig, ok := Parse(c)
				if !ok {
					continue
				}
				p := fset.Position(c.Pos())
				lines := d.byLine[p.Filename]
				if lines == nil {
					lines = map[int][]*Ignore{}
					d.byLine[p.Filename] = lines
				}
				lines[p.Line] = append(lines[p.Line], ig)
				d.All = append(d.All, ig)
				d.byPos[c.Pos()] = ig
			}
		}
	}
	return d
}

// Handler reports whether a doc comment marks a custom request root.
func (d *Index) Handler(doc *ast.CommentGroup) bool {
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

// FuncIgnores returns the ignores of a function's doc comment.
func (d *Index) FuncIgnores(doc *ast.CommentGroup) []*Ignore {
	if doc == nil {
		return nil
	}
	var igs []*Ignore
	for _, c := range doc.List {
		if ig := d.byPos[c.Pos()]; ig != nil {
			igs = append(igs, ig)
		}
	}
	return igs
}

// FuncSuppressed reports whether one of a function's doc-comment ignores
// hides rule, and marks it used.
func FuncSuppressed(igs []*Ignore, rule string) bool {
	return markUsed(FuncIgnore(igs, rule))
}

// FuncIgnore returns the first of a function's doc-comment ignores that
// names rule, nil when none does. It is not marked used: the caller
// decides whether it hid anything.
func FuncIgnore(igs []*Ignore, rule string) *Ignore {
	for _, ig := range igs {
		if ig.Rules[rule] {
			return ig
		}
	}
	return nil
}

// Suppressed reports whether rule is ignored at pos by a comment on the
// same line or the line above, and marks that comment used.
func (d *Index) Suppressed(pos token.Pos, rule string) bool {
	return markUsed(d.At(pos, rule))
}

// At returns the ignore of rule at pos, on the same line or the line
// above, nil when there is none. As with FuncIgnore, it is not marked
// used.
func (d *Index) At(pos token.Pos, rule string) *Ignore {
	if !pos.IsValid() {
		return nil
	}
	p := d.fset.Position(pos)
	lines := d.byLine[p.Filename]
	for _, line := range []int{p.Line, p.Line - 1} {
		for _, ig := range lines[line] {
			if ig.Rules[rule] {
				return ig
			}
		}
	}
	return nil
}

// markUsed is the marking half of Suppressed and FuncSuppressed: an
// ignore found there hides what was asked.
func markUsed(ig *Ignore) bool {
	if ig == nil {
		return false
	}
	ig.Used = true
	return true
}
