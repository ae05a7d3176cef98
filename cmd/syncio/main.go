package main

import (
	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer"
	"github.com/syncio/syncio/cmd/syncio/driver"
	"github.com/syncio/syncio/cmd/syncio/sarifreport"
)

func main() {
	driver.Main(driver.Config{
		Analyzer: analyzer.Analyzer,
		Rules:    catalogue(),
		Fresh:    func() *analysis.Analyzer { return analyzer.New(analyzer.DefaultConfig()) },
	})
}

// catalogue is the analyzer's rule catalogue in the SARIF model.
func catalogue() []sarifreport.Rule {
	rules := make([]sarifreport.Rule, 0, len(analyzer.Rules))
	for _, r := range analyzer.Rules {
		rules = append(rules, sarifreport.Rule{ID: r.ID, Name: r.Name, Short: r.Short, HelpURI: analyzer.RuleURL(r.ID)})
	}
	return rules
}
