package main

import (
	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer"
	"github.com/syncio/syncio/cmd/syncio/driver"
	"github.com/syncio/syncio/cmd/syncio/sarifreport"
)

func main() {
	driver.Main(driver.Config{
		Analyzer:  analyzer.Analyzer,
		Catalogue: func() []sarifreport.Rule { return catalogue(docsBase(analyzer.Analyzer)) },
		Fresh:     func() *analysis.Analyzer { return analyzer.New(analyzer.DefaultConfig()) },
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

// catalogue is the analyzer's rule catalogue in the SARIF model: each
// rule's help URL is its fix page, the page its findings link, and its
// help text also names the rule's own page.
func catalogue(base string) []sarifreport.Rule {
	rules := make([]sarifreport.Rule, 0, len(analyzer.Rules))
	for _, r := range analyzer.Rules {
		rules = append(rules, sarifreport.Rule{
			ID: r.ID, Name: r.Name, Short: r.Short,
			HelpURI: base + analyzer.FixPage(r.ID),
			RuleURI: base + analyzer.RulePage(r.ID),
		})
	}
	return rules
}
