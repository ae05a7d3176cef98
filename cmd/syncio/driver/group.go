package driver

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/syncio/syncio/cmd/syncio/cause"
)

// shownRoots is how many other request paths a grouped finding names; the
// rest are counted.
const shownRoots = 5

// rootRef is one more request path that reaches a grouped finding's cause:
// the root's call, and the name of the function it is in.
type rootRef struct {
	pos  token.Position
	name string
}

// program is the directories of the modules the packages asked for
// belong to: a chain's hop there is the program's own code.
func program(initial []*packages.Package) cause.Program {
	var p cause.Program
	seen := map[string]bool{}
	for _, pkg := range initial {
		if pkg.Module == nil || pkg.Module.Dir == "" || seen[pkg.Module.Dir] {
			continue
		}
		seen[pkg.Module.Dir] = true
		p = append(p, pkg.Module.Dir)
	}
	return p
}

// causeFindings is what grouping reads of each finding.
func causeFindings(found []finding) []cause.Finding {
	out := make([]cause.Finding, len(found))
	for i, f := range found {
		out[i] = cause.Finding{Rule: ruleOf(f.diag.Category, f.diag.Message), Pos: f.pos}
		for _, r := range f.diag.Related {
			out[i].Chain = append(out[i].Chain, cause.Hop{Pos: f.fset.Position(r.Pos), Message: r.Message})
		}
	}
	return out
}

// grouped folds the findings of one cause into one finding at the cause
// (package cause): its message counts the request paths and quotes the
// first one's finding, its chain is the first one's, and the others are
// named as roots. A finding of its own is returned as it is.
func grouped(found []finding, prog cause.Program) []finding {
	cfs := causeFindings(found)
	var out []finding
	for _, g := range prog.Group(cfs) {
		first := found[g[0]]
		n := 0
		for _, i := range g {
			n += cause.Paths(cfs[i])
		}
		if len(g) == 1 {
			if n > 1 {
				first.paths = n // one diagnostic for several request paths (cause.Paths)
			}
			out = append(out, first)
			continue
		}
		_, hop := prog.Site(cfs[g[0]])
		at := first.diag.Related[hop]
		d := analysis.Diagnostic{
			Pos:      at.Pos,
			End:      at.End,
			Category: first.diag.Category,
			URL:      first.diag.URL,
			Message:  fmt.Sprintf("%d request paths reach this call; the first: %s", n, first.diag.Message),
			Related:  first.diag.Related,
		}
		gf := finding{diag: d, fset: first.fset, pos: first.fset.Position(at.Pos), base: first.base, state: first.state, paths: n}
		for _, i := range g[1:] {
			m := found[i]
			if m.state == stateNew {
				gf.state = stateNew
			}
			gf.roots = append(gf.roots, rootRef{pos: m.pos, name: rootName(m.diag.Message)})
		}
		out = append(out, gf)
	}
	sortFindings(out)
	return out
}

// rootName is the function a finding's message starts from ("Handler
// calls …", "func literal calls …"), or "" when the message has no such
// head.
func rootName(msg string) string {
	for _, sep := range []string{" calls ", " is given "} {
		if head, _, ok := strings.Cut(msg, sep); ok && len(head) <= 60 {
			return head
		}
	}
	return ""
}

// rootLines are a grouped finding's lines after its chain: the other
// request paths, at most shownRoots of them, and how many more.
func rootLines(f finding, short func(string) string) []string {
	var lines []string
	for i, r := range f.roots {
		if i == shownRoots {
			lines = append(lines, fmt.Sprintf("and %d more request paths (-group=false reports each)", len(f.roots)-shownRoots))
			break
		}
		line := "also reached from " + short(r.pos.String())
		if r.name != "" {
			line += " (" + r.name + ")"
		}
		lines = append(lines, line)
	}
	return lines
}

// causes maps each finding's position and message to its cause and the
// size of its group, for -json: every diagnostic is kept there, each
// saying where it is fixed.
func causes(found []finding, prog cause.Program) map[[2]string]jsonCause {
	cfs := causeFindings(found)
	out := map[[2]string]jsonCause{}
	for _, g := range prog.Group(cfs) {
		site, _ := prog.Site(cfs[g[0]])
		n := 0
		for _, i := range g {
			n += cause.Paths(cfs[i])
		}
		for _, i := range g {
			out[[2]string{found[i].pos.String(), found[i].diag.Message}] = jsonCause{Cause: site.String(), Paths: n}
		}
	}
	return out
}

// jsonCause is what -json adds to a diagnostic: where it is fixed, and
// how many request paths' findings share that place.
type jsonCause struct {
	Cause string
	Paths int
}
