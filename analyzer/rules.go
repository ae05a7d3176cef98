package analyzer

// Rule describes one entry of the rule catalogue. IDs are stable: they appear
// in diagnostic messages, as Diagnostic.Category, in SARIF and in docs/rules.
type Rule struct {
	ID    string // SIO001 …
	Name  string // kebab-case short name
	Short string // one-line description (SARIF shortDescription)
	// OptIn rules are disabled unless enabled explicitly.
	OptIn bool
}

// DocsBase is where the per-rule pages live; Diagnostic.URL is DocsBase + ID + ".md".
const DocsBase = "https://github.com/syncio/syncio/blob/main/docs/rules/"

// Rules is the rule catalogue, in ID order.
var Rules = []Rule{
	{ID: "SIO001", Name: "blocking-call", Short: "context-less I/O call on a request path that has a context-aware variant"},
	{ID: "SIO002", Name: "dropped-context", Short: "context-accepting call on a request path given a context not derived from the request"},
	{ID: "SIO003", Name: "lock-across-io", Short: "sync.Mutex/RWMutex held across blocking I/O on a request path"},
	{ID: "SIO004", Name: "client-per-request", Short: "transport, SDK client or connection pool built inside a request path"},
	{ID: "SIO005", Name: "uncancellable-wait", Short: "wait on a request path with no ctx.Done() escape"},
	{ID: "SIO006", Name: "file-io", Short: "os file I/O on a request path (opt-in)", OptIn: true},
	{ID: "SIO007", Name: "tx-across-io", Short: "database transaction or pooled connection held open across a remote call on a request path"},
}

// RuleURL returns the documentation URL of a rule ID.
func RuleURL(id string) string { return DocsBase + id + ".md" }

// RuleByID returns the catalogue entry for id.
func RuleByID(id string) (Rule, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
