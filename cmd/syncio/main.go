package main

import (
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer"
	"github.com/syncio/syncio/cmd/syncio/driver"
	"github.com/syncio/syncio/cmd/syncio/sarifreport"
)

func main() {
	driver.Main(driver.Config{
		Analyzer: analyzer.Analyzer,
		Catalogue: func() []sarifreport.Rule {
			return catalogue(docsBase(analyzer.Analyzer), rulesOn(analyzer.Analyzer))
		},
		Fresh: func() *analysis.Analyzer { return analyzer.New(analyzer.DefaultConfig()) },
	})
}

// docsBase is the docs base the analyzer's -docs flag holds once the
// flags are parsed: the base its findings' URLs are under.
func docsBase(a *analysis.Analyzer) string {
	if f := a.Flags.Lookup("docs"); f != nil && f.Value.String() != "" {
		return f.Value.String()
	}
	return analyzer.DefaultDocsBase
}

// rulesOn is the set of rules the run reports, as the analyzer's -rules
// flag holds it once the flags are parsed.
func rulesOn(a *analysis.Analyzer) map[string]bool {
	f := a.Flags.Lookup("rules")
	if f == nil {
		return analyzer.DefaultConfig().Rules
	}
	on := map[string]bool{}
	for _, id := range strings.Split(f.Value.String(), ",") {
		on[id] = true
	}
	return on
}

// catalogue is the analyzer's rule catalogue in the SARIF model: each
// rule's help URL is its fix page, the page its findings link, and its
// help text also names the rule's own page. Rules not in on are marked
// disabled.
func catalogue(base string, on map[string]bool) []sarifreport.Rule {
	rules := make([]sarifreport.Rule, 0, len(analyzer.Rules))
	for _, r := range analyzer.Rules {
		rules = append(rules, sarifreport.Rule{
			ID: r.ID, Name: r.Name, Short: r.Short,
			HelpURI:  base + analyzer.FixPage(r.ID),
			RuleURI:  base + analyzer.RulePage(r.ID),
			Disabled: !on[r.ID],
		})
	}
	return rules
}
