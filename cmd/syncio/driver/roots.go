package driver

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis/checker"

	"github.com/syncio/syncio/analyzer/seen"
)

// ExitBlind is the exit code of a run with -strict-roots in which a
// package registers routes but no request root was found in it. A load
// failure (ExitError) wins over it; it wins over ExitFindings, since the
// findings of such a run are incomplete.
const ExitBlind = 4

// rootsSeen merges what the analyzer saw in the root packages (their test
// variants folded in). ok is false when the analyzer returns no
// seen.Package (an analyzer other than syncio's): then the run says
// nothing about roots.
func rootsSeen(g *checker.Graph, dir string) (rep seen.Report, ok bool) {
	var pkgs []*seen.Package
	for _, act := range g.Roots {
		p, isSeen := act.Result.(*seen.Package)
		if !isSeen {
			continue
		}
		ok = true
		if p != nil {
			pkgs = append(pkgs, relativePackage(p, dir))
		}
	}
	return seen.Merge(pkgs), ok
}

// relativePackage is p with its positions relative to dir, as the text
// findings show them, so the report is the same on every machine.
func relativePackage(p *seen.Package, dir string) *seen.Package {
	c := *p
	c.Roots = make([]seen.Root, len(p.Roots))
	for i, r := range p.Roots {
		r.Pos = shortPath(dir, r.Pos)
		if r.End != "" {
			r.End = shortPath(dir, r.End)
		}
		if r.Unfollowed != "" {
			r.Unfollowed = shortPath(dir, r.Unfollowed)
		}
		c.Roots[i] = r
	}
	c.Refs = make([]seen.Ref, len(p.Refs))
	for i, x := range p.Refs {
		if x.At != "" {
			x.At = shortPath(dir, x.At)
		}
		c.Refs[i] = x
	}
	c.GinHeld = shortKeys(dir, p.GinHeld)
	c.GinDecided = shortKeys(dir, p.GinDecided)
	c.Unfollowed = make([]seen.Unfollowed, len(p.Unfollowed))
	for i, u := range p.Unfollowed {
		u.Pos = shortPath(dir, u.Pos)
		c.Unfollowed[i] = u
	}
	c.Registrations = make([]seen.Registration, len(p.Registrations))
	for i, r := range p.Registrations {
		r.Pos = shortPath(dir, r.Pos)
		c.Registrations[i] = r
	}
	return &c
}

// blindWarnings are the lines (without the tool's name) that say which
// packages register routes whose handlers were not analysed.
func blindWarnings(rep seen.Report) []string {
	out := make([]string, 0, len(rep.Blind))
	for _, b := range rep.Blind {
		out = append(out, fmt.Sprintf("warning: package %s registers routes (%d registration calls, the first at %s) but no request root was found in it: "+
			"its handlers were not analysed, and no finding there means nothing; see -roots-report for why each handler could not be followed, "+
			"and mark the handlers //syncio:handler or pass -roots (docs/frameworks.md)",
			b.Path, b.Registrations, seen.ShortPos(func(s string) string { return s }, b.First)))
	}
	return out
}

// shortKeys is keys ("site|…", seen.Package.GinHeld's) with their sites
// relative to dir.
func shortKeys(dir string, keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		site, rest, _ := strings.Cut(k, "|")
		out[i] = shortPath(dir, site) + "|" + rest
	}
	return out
}

// printRoots prints the warnings for blind packages and the roots line,
// the run's last line.
func printRoots(w io.Writer, name string, rep seen.Report) {
	for _, line := range blindWarnings(rep) {
		fmt.Fprintf(w, "%s: %s\n", name, line)
	}
	if note := ginNote(rep); note != "" {
		fmt.Fprintf(w, "%s: %s\n", name, note)
	}
	fmt.Fprintf(w, "%s: %s\n", name, rep.Line(nil))
}

// ginNote says, once, which calls that give a *gin.Context as a context
// were neither reported nor cleared because no analysed package decided
// the engine's ContextWithFallback; "" when there are none.
func ginNote(rep seen.Report) string {
	n := len(rep.GinUndecided)
	if n == 0 {
		return ""
	}
	calls := "1 call gives"
	if n > 1 {
		calls = fmt.Sprintf("%d calls give", n)
	}
	return fmt.Sprintf("%s a *gin.Context as a context (first at %s) where no package analysed builds the gin engine or sets ContextWithFallback, so whether c is cancelled with the request is unknown: not reported; run with -gin-context-fallback=false if the engine keeps gin's default (they are SIO002 findings then), or -gin-context-fallback if it sets ContextWithFallback = true",
		calls, rep.GinUndecided[0])
}

// writeRootsReport writes rep as JSON to path (relative to dir).
func writeRootsReport(path, dir string, rep seen.Report) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return fmt.Errorf("-roots-report: %w", err)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("-roots-report: %w", err)
	}
	return nil
}
