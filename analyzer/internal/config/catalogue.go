package config

// Rule describes one entry of the rule catalogue. IDs are stable: they appear
// in diagnostic messages, as Diagnostic.Category, in SARIF and in docs/rules.
type Rule struct {
	ID    string // SIO001 …
	Name  string // kebab-case short name
	Short string // one-line description (SARIF shortDescription)
	// OptIn rules are disabled unless enabled explicitly.
	OptIn bool
}

// DefaultDocsBase is where the project's docs/ directory is published when
// nothing else is said: the repository's docs path on GitHub, as the module
// path names it. A fork, a private copy or a docs site of its own sets the
// base with the -docs flag (settings key "docs"); see Config.DocsBase.
const DefaultDocsBase = "https://github.com/syncio/syncio/blob/main/docs/"

// SuppressionPage is the docs page (relative to the docs base) that a
// diagnostic about a //syncio:ignore directive links: its fix is the
// directive's, not the rule's.
const SuppressionPage = "ci.md#suppression"

// Rules is the rule catalogue, in ID order.
var Rules = []Rule{
	{ID: "SIO001", Name: "blocking-call", Short: "context-less I/O call on a request path that has a context-aware variant"},
	{ID: "SIO002", Name: "dropped-context", Short: "context-accepting call on a request path given a context not derived from the request"},
	{ID: "SIO003", Name: "lock-across-io", Short: "sync.Mutex/RWMutex held across blocking I/O on a request path"},
	{ID: "SIO004", Name: "client-per-request", Short: "transport, SDK client or connection pool built inside a request path"},
	{ID: "SIO005", Name: "uncancellable-wait", Short: "wait on a request path with no ctx.Done() escape"},
	{ID: "SIO006", Name: "file-io", Short: "os file I/O on a request path (opt-in)", OptIn: true},
	{ID: "SIO007", Name: "tx-across-io", Short: "database transaction or pooled connection held open across a remote call on a request path"},
	{ID: "SIO008", Name: "missing-deadline", Short: "HTTP server, client or dialer that waits on a peer with no deadline"},
}

// RulePage is a rule's own page (what it flags, and why), relative to the
// docs base.
func RulePage(id string) string { return "rules/" + id + ".md" }

// RuleURL returns the URL of a rule's page under DefaultDocsBase.
func RuleURL(id string) string { return DefaultDocsBase + RulePage(id) }

// FixPage is the page, relative to the docs base, with the fixes for a
// rule's findings: docs/remediation/ID.md, or for a rule without one
// (SIO006, whose fixes are on its rule page, and an ID outside the
// catalogue) its rule page.
func FixPage(id string) string {
	if _, ok := fixPages[id]; ok {
		return "remediation/" + id + ".md"
	}
	return RulePage(id)
}

// fixPages are the rules with a page of their own under docs/remediation/.
var fixPages = map[string]struct{}{
	"SIO001": {}, "SIO002": {}, "SIO003": {}, "SIO004": {}, "SIO005": {}, "SIO007": {}, "SIO008": {},
}

// FixURL returns the URL of a rule's fix page under DefaultDocsBase: what
// Diagnostic.URL carries unless the docs base is set.
func FixURL(id string) string { return DefaultDocsBase + FixPage(id) }

// RuleByID returns the catalogue entry for id.
func RuleByID(id string) (Rule, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
