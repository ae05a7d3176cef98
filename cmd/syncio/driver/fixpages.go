package driver

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// The text output names each finding's fix page once per run, in closing
// lines after the findings, rather than in a suffix on every finding:
// baselines key findings by their message, and scripts, editors' problem
// matchers and the docs' quoted outputs read each finding line as
// "file:line:col: message (SIOnnn)". A closing line keeps every finding
// line as it was; it starts with the tool's name and no position, so
// nothing takes it for a finding.

// printFixPages writes one line per rule and page among found, in rule
// order: "syncio: SIO001 (12 findings): URL". The page is the findings'
// Diagnostic.URL (their rule's fix page, or for a //syncio:ignore
// diagnostic the section on suppression); findings without one are not
// counted, there being nothing to name.
func printFixPages(w io.Writer, name string, found []finding) error {
	type page struct{ rule, url string }
	counts, paths := map[page]int{}, map[page]int{}
	for _, f := range found {
		if f.diag.URL == "" {
			continue
		}
		p := page{ruleOf(f.diag.Category, f.diag.Message), f.diag.URL}
		counts[p]++
		paths[p] += max(f.paths, 1)
	}
	pages := make([]page, 0, len(counts))
	for p := range counts {
		pages = append(pages, p)
	}
	sort.Slice(pages, func(i, j int) bool {
		if pages[i].rule != pages[j].rule {
			return pages[i].rule < pages[j].rule
		}
		return pages[i].url < pages[j].url
	})
	var b strings.Builder
	for _, p := range pages {
		n := counts[p]
		noun := "findings"
		if n == 1 {
			noun = "finding"
		}
		rule := p.rule
		if rule == "" {
			rule = "findings without a rule ID"
		}
		if paths[p] > n {
			// Findings folded by their cause (group.go): say how many
			// request paths they stand for.
			noun += fmt.Sprintf(", %d request paths", paths[p])
		}
		fmt.Fprintf(&b, "%s: %s (%d %s): %s\n", name, rule, n, noun, p.url)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
