package analyzer

import (
	"flag"
	"fmt"
	"maps"
	"net/url"
	"sort"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

// Replacement describes the context-aware variant of a context-less call
// (SIO001). Keys of Config.Blocking name the call: "net/http.Get" for a
// package-level function, "database/sql.(*DB).Query" for a method with a
// pointer receiver and "pkg/path.T.M" for a value receiver or a method of
// the interface type T (matched when the call's static callee is that
// interface method, so a call through any interface embedding T counts).
type Replacement struct {
	// Use is shown after "use " in the message, e.g.
	// "http.NewRequestWithContext(ctx, ...)".
	Use string
	// Verb overrides the default "blocks" wording for calls that do not
	// block themselves but start work the request cannot cancel.
	Verb string
	// Method, when set, is the name of the context-aware method or
	// function that takes ctx as its first argument; it enables the
	// mechanical suggested fix (rename + insert ctx).
	Method string
	// ExtraArgs are appended after ctx by the fix (e.g. "nil" for
	// Begin → BeginTx(ctx, nil)). Only valid when the original call has
	// no arguments.
	ExtraArgs string
	// Routed names a hook (knowledge.RoutedHooks) that judges from the
	// call's receiver or arguments whether it may carry the request
	// context after all; such a call is not reported.
	Routed string
}

// Config selects the rules an Analyzer reports and the call tables they
// read (the built-in ones are internal/knowledge/blocking.txt and
// calls.txt).
type Config struct {
	// Rules is the set of enabled rule IDs. Rules missing from the map
	// are disabled.
	Rules map[string]bool
	// Blocking maps a call key to its context-aware replacement (SIO001).
	Blocking map[string]Replacement
	// Clients maps a constructor's key to what it builds (SIO004, a client
	// with its own connections). A key ending in "*" ("pkg/path.NewClient*")
	// stands for every package-level function of pkg/path whose name
	// starts so.
	Clients map[string]string
	// Waits maps a call that waits with no way to be cancelled to the
	// advice its SIO005 finding gives.
	Waits map[string]string
	// Files holds the calls that do file I/O (SIO006).
	Files map[string]bool
	// IO holds context-aware calls that do I/O (true): fine on their own,
	// counted under a lock (SIO003) or an open transaction (SIO007); and
	// dependency calls taking a context that are known to do none (false,
	// noio rows), which are otherwise presumed to.
	IO map[string]bool
	// Memory holds functions of in-memory libraries that take a context
	// and do no I/O with it (memory rows): given a dropped context they
	// are SIO002 only where the program hands their package a function
	// taking a context (rule_dropped.go).
	Memory map[string]bool
	// Tests makes _test.go files part of the analysis (their handlers
	// become roots). Off by default: tests are rarely request paths.
	Tests bool
	// Allow holds call keys (same form as Blocking) that may block: calls
	// to them are never reported and never make their caller block.
	Allow map[string]bool
	// Roots holds extra request roots: function keys (same form as
	// Blocking) or "func(T)" patterns, where T is "pkg/path.Name" or
	// "*pkg/path.Name", matching every function and func literal whose
	// first parameter has type T.
	Roots []string
	// ReportIgnored reports the findings that //syncio:ignore comments
	// hide, and no stale ignores (every ignore would be unused). It is for
	// joining with what was seen at run time (syncio -confirm): a
	// suppressed antipattern still blocks under load.
	ReportIgnored bool
	// GinContextFallback says the program sets gin's
	// Engine.ContextWithFallback = true, so a *gin.Context is the request's
	// context. syncio sees the assignment only in the package it analyses;
	// set this when the engine is built in another package.
	GinContextFallback bool
	// StrictRoots reports, as an SIO000 diagnostic at its first
	// registration call, a package that registers routes but where no
	// request root was found (its handlers are not analysed). For drivers
	// that show nothing but diagnostics (go vet, golangci-lint); the
	// standalone syncio prints a warning instead, and its own -strict-roots
	// turns that into a failure.
	StrictRoots bool
	// DocsBase is the URL of the docs/ directory that diagnostics link
	// (Diagnostic.URL is DocsBase + FixPage(rule)), ending in a slash.
	// Empty means DefaultDocsBase.
	DocsBase string
}

// fixURL is the URL a diagnostic of rule carries: its fix page.
func (c *Config) fixURL(rule string) string { return c.docs() + FixPage(rule) }

// suppressionURL is the URL a diagnostic about a //syncio:ignore carries.
func (c *Config) suppressionURL() string { return c.docs() + SuppressionPage }

func (c *Config) docs() string {
	if c.DocsBase == "" {
		return DefaultDocsBase
	}
	return c.DocsBase
}

// DefaultConfig enables every rule that is not opt-in and uses the
// built-in call tables.
func DefaultConfig() Config {
	cfg := Config{Rules: map[string]bool{}, Allow: map[string]bool{}}
	for _, r := range Rules {
		if !r.OptIn {
			cfg.Rules[r.ID] = true
		}
	}
	t := defaultTables()
	cfg.Blocking = maps.Clone(t.blocking)
	cfg.Clients = maps.Clone(t.clients)
	cfg.Waits = maps.Clone(t.waits)
	cfg.Files = maps.Clone(t.files)
	cfg.IO = maps.Clone(t.io)
	cfg.Memory = maps.Clone(t.memory)
	return cfg
}

// clone deep-copies c so that flags can change the copy.
func (c Config) clone() *Config {
	n := &Config{Rules: map[string]bool{}, Blocking: map[string]Replacement{}, Allow: map[string]bool{},
		Clients: map[string]string{}, Waits: map[string]string{}, Files: map[string]bool{}, IO: map[string]bool{}, Memory: map[string]bool{},
		Tests: c.Tests, ReportIgnored: c.ReportIgnored,
		GinContextFallback: c.GinContextFallback, StrictRoots: c.StrictRoots, DocsBase: c.DocsBase}
	maps.Copy(n.Rules, c.Rules)
	maps.Copy(n.Blocking, c.Blocking)
	maps.Copy(n.Allow, c.Allow)
	maps.Copy(n.Clients, c.Clients)
	maps.Copy(n.Waits, c.Waits)
	maps.Copy(n.Files, c.Files)
	maps.Copy(n.IO, c.IO)
	maps.Copy(n.Memory, c.Memory)
	n.Roots = append(n.Roots, c.Roots...)
	return n
}

// enabled reports whether rule id is on.
func (c *Config) enabled(id string) bool { return c.Rules[id] }

// Settings are the configuration keys shared by the CLI flags and the
// golangci-lint plugin settings (linters.settings.custom.syncio.settings).
// golangci-lint's register.DecodeSettings round-trips them through JSON,
// hence the json tags.
type Settings struct {
	// Rules switches rules on (true) or off (false) relative to the
	// defaults. IDs are case-insensitive: golangci-lint lower-cases map
	// keys.
	Rules map[string]bool `json:"rules"`
	// Tests also analyses _test.go files.
	Tests bool `json:"tests"`
	// Blocking adds rows to the call tables, each a row of the built-in
	// tables' format (internal/knowledge/blocking.txt and calls.txt): a key,
	// "pkg/path.Func", "pkg/path.(*Type).Method" or "pkg/path.Type.Method"
	// (Type may be an interface), then fields. An SIO001 row (the default
	// kind) may have "| use: replacement", "| method: Name" (turns on the
	// fix), "| extra-args: text", "| verb: text"; "| builds: what" makes
	// an SIO004 constructor row (its key may end in "*"), "| hint: advice"
	// an SIO005 wait row; "| kind: file", "| kind: io" and "| kind: noio"
	// rows take no field; any row may end in "| evidence: text". The older
	// "key=suggestion" form is an SIO001 row with only a use.
	Blocking []string `json:"blocking"`
	// Allow lists functions (same syntax, no suggestion) that may block.
	Allow []string `json:"allow"`
	// Roots lists extra request roots: function names (same syntax) or
	// "func(pkg/path.Type)" / "func(*pkg/path.Type)" first-parameter
	// patterns.
	Roots []string `json:"roots"`
	// GinContextFallback: the program sets gin's
	// Engine.ContextWithFallback = true (see Config).
	GinContextFallback bool `json:"gin-context-fallback"`
	// StrictRoots reports a package that registers routes but where no
	// request root was found (see Config.StrictRoots).
	StrictRoots bool `json:"strict-roots"`
	// Docs is the URL of the docs/ directory that findings link to their
	// fix pages under (default DefaultDocsBase): set it when the project's
	// docs are published elsewhere, e.g. a fork or an internal mirror.
	Docs string `json:"docs"`
}

// Config validates s and returns the configuration it describes, starting
// from DefaultConfig.
func (s Settings) Config() (Config, error) {
	cfg := DefaultConfig()
	ids := make([]string, 0, len(s.Rules))
	for id := range s.Rules {
		ids = append(ids, id)
	}
	sort.Strings(ids) // the first bad ID reported is deterministic
	for _, raw := range ids {
		id, err := parseRuleID(raw)
		if err != nil {
			return Config{}, fmt.Errorf("rules: %w", err)
		}
		cfg.Rules[id] = s.Rules[raw]
	}
	cfg.Tests = s.Tests
	cfg.GinContextFallback = s.GinContextFallback
	cfg.StrictRoots = s.StrictRoots
	for _, b := range s.Blocking {
		if err := addBlocking(&cfg, b); err != nil {
			return Config{}, err
		}
	}
	for _, a := range s.Allow {
		if err := addAllow(&cfg, a); err != nil {
			return Config{}, err
		}
	}
	for _, rt := range s.Roots {
		if err := addRoot(&cfg, rt); err != nil {
			return Config{}, err
		}
	}
	if s.Docs != "" {
		base, err := parseDocsBase(s.Docs)
		if err != nil {
			return Config{}, err
		}
		cfg.DocsBase = base
	}
	return cfg, nil
}

// parseRuleID normalises a rule ID (case-insensitive) and rejects unknown ones.
func parseRuleID(s string) (string, error) {
	id := strings.ToUpper(strings.TrimSpace(s))
	if _, ok := RuleByID(id); !ok {
		var known []string
		for _, r := range Rules {
			known = append(known, r.ID)
		}
		return "", fmt.Errorf("unknown rule %q (known: %s)", s, strings.Join(known, ", "))
	}
	return id, nil
}

const funcSyntax = knowledge.KeySyntax

// parseFuncKey checks a function name in the analyzer's key syntax:
// an import path, then ".Func", ".(*Type).Method" or ".Type.Method".
func parseFuncKey(s string) (string, error) { return knowledge.ParseKey(s) }

// isIdent reports whether s is a Go identifier.
func isIdent(s string) bool { return knowledge.IsIdent(s) }

// defaultUse is the suggestion for a user-declared blocking call that
// names none.
const defaultUse = "a variant that takes the request context"

// Defaults for the fields a user's row may leave out.
const (
	defaultBuilds = "a client with its own connections"
	defaultHint   = "make the wait end when the request's context is done (select on ctx.Done())"
)

// addBlocking adds a user's entry to the call tables: a row of the
// built-in tables' format ("key | use: … | method: …",
// "key | builds: …", "key | hint: …", knowledge.ParseRow) or the older
// SIO001 "key[=suggestion]". Which one is told by what follows the key,
// "|" or "=": neither can be part of a key.
func addBlocking(cfg *Config, s string) error {
	var row knowledge.Row
	if bar, eq := strings.Index(s, "|"), strings.Index(s, "="); bar >= 0 && (eq < 0 || bar < eq) {
		r, err := knowledge.ParseRow(s)
		if err != nil {
			return fmt.Errorf("blocking: %w; %s", err, knowledge.RowSyntax)
		}
		row = r
	} else {
		keyPart, use, _ := strings.Cut(s, "=")
		key, err := parseFuncKey(keyPart)
		if err != nil {
			return fmt.Errorf("blocking: %w, optionally followed by =suggestion or by | use: replacement | method: Name", err)
		}
		row = knowledge.Row{Key: key, Kind: knowledge.KindBlocking, Use: strings.TrimSpace(use)}
	}
	switch {
	case row.Kind == knowledge.KindBlocking && row.Use == "":
		row.Use = defaultUse
	case row.Kind == knowledge.KindClient && row.Builds == "":
		row.Builds = defaultBuilds
	case row.Kind == knowledge.KindWait && row.Hint == "":
		row.Hint = defaultHint
	}
	cfg.addRow(row)
	return nil
}

// addAllow adds a function key to cfg.Allow.
func addAllow(cfg *Config, s string) error {
	key, err := parseFuncKey(s)
	if err != nil {
		return fmt.Errorf("allow: %w", err)
	}
	cfg.Allow[key] = true
	return nil
}

// addRoot adds a function key or a func(T) pattern to cfg.Roots.
func addRoot(cfg *Config, s string) error {
	s = strings.TrimSpace(s)
	if inner, ok := strings.CutPrefix(s, "func("); ok {
		typ, ok := strings.CutSuffix(inner, ")")
		typ = strings.TrimPrefix(typ, "*")
		slash := strings.LastIndex(typ, "/")
		name := typ[slash+1:]
		dot := strings.LastIndex(name, ".")
		if !ok || dot <= 0 || !isIdent(name[dot+1:]) || strings.ContainsAny(typ, " \t,") {
			return fmt.Errorf(`roots: %q: want a function (%s) or "func(pkg/path.Type)" / "func(*pkg/path.Type)"`, s, funcSyntax[5:])
		}
		cfg.Roots = append(cfg.Roots, s)
		return nil
	}
	key, err := parseFuncKey(s)
	if err != nil {
		return fmt.Errorf(`roots: %w, or "func(pkg/path.Type)" / "func(*pkg/path.Type)"`, err)
	}
	cfg.Roots = append(cfg.Roots, key)
	return nil
}

// rulesFlag is the -rules flag: a comma-separated list of rule IDs that
// replaces the enabled set.
type rulesFlag struct{ cfg *Config }

func (f rulesFlag) String() string {
	if f.cfg == nil {
		return ""
	}
	var ids []string
	for id, on := range f.cfg.Rules {
		if on {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return strings.Join(ids, ",")
}

func (f rulesFlag) Set(s string) error {
	rules := map[string]bool{}
	for _, id := range strings.Split(s, ",") {
		if strings.TrimSpace(id) == "" {
			continue
		}
		id, err := parseRuleID(id)
		if err != nil {
			return err
		}
		rules[id] = true
	}
	f.cfg.Rules = rules
	return nil
}

// listFlag is a repeatable, comma-separated flag whose entries go through
// the same parser as the matching Settings key.
type listFlag struct {
	cfg *Config
	add func(*Config, string) error
	val *[]string
}

func (f listFlag) String() string {
	if f.val == nil {
		return ""
	}
	return strings.Join(*f.val, ",")
}

func (f listFlag) Set(s string) error {
	for _, e := range splitList(s) {
		if strings.TrimSpace(e) == "" {
			continue
		}
		if err := f.add(f.cfg, e); err != nil {
			return err
		}
		*f.val = append(*f.val, strings.TrimSpace(e))
	}
	return nil
}

// splitList splits a flag value on commas, except inside a suggestion:
// a piece that does not start with a function name is glued back onto a
// previous "key=suggestion" or "key | use: …" entry
// ("a.F=a.FContext(ctx, ...)" and "a.F | use: a.FContext(ctx, x)" stay
// whole).
func splitList(s string) []string {
	var out []string
	for _, piece := range strings.Split(s, ",") {
		if n := len(out); n > 0 && strings.ContainsAny(out[n-1], "=|") {
			key, _, _ := strings.Cut(piece, "=")
			key, _, _ = strings.Cut(key, "|")
			key = strings.TrimSuffix(strings.TrimSpace(key), "*") // a client row's pattern
			if _, err := parseFuncKey(key); err != nil {
				out[n-1] += "," + piece
				continue
			}
		}
		out = append(out, piece)
	}
	return out
}

// parseDocsBase checks the URL of a docs/ directory and ends it with a
// slash, so that page names resolve inside it.
func parseDocsBase(s string) (string, error) {
	raw := strings.TrimSpace(s)
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || (u.Host == "" && u.Scheme != "file") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("docs: %q: want the absolute URL of the docs/ directory, e.g. %s", s, DefaultDocsBase)
	}
	if !strings.HasSuffix(raw, "/") {
		raw += "/"
	}
	return raw, nil
}

// docsFlag sets Config.DocsBase through parseDocsBase.
type docsFlag struct{ cfg *Config }

func (f docsFlag) String() string {
	if f.cfg == nil {
		return ""
	}
	return f.cfg.docs()
}

func (f docsFlag) Set(s string) error {
	base, err := parseDocsBase(s)
	if err != nil {
		return err
	}
	f.cfg.DocsBase = base
	return nil
}

func registerFlags(fs *flag.FlagSet, cfg *Config) {
	fs.Var(rulesFlag{cfg}, "rules", "comma-separated rule IDs to enable (default: every rule that is not opt-in)")
	fs.BoolVar(&cfg.Tests, "tests", cfg.Tests, "also analyse _test.go files")
	fs.BoolVar(&cfg.ReportIgnored, "report-ignored", cfg.ReportIgnored,
		"also report findings that //syncio:ignore comments hide (to join them with -confirm)")
	fs.BoolVar(&cfg.GinContextFallback, "gin-context-fallback", cfg.GinContextFallback,
		"the program sets gin's Engine.ContextWithFallback = true in a package other than the handlers' (then a *gin.Context is the request's context)")
	fs.BoolVar(&cfg.StrictRoots, "strict-roots", cfg.StrictRoots,
		"report (SIO000) a package that registers routes but where no request root was found; for go vet and golangci-lint, where the standalone syncio's roots line and warning cannot be shown")
	fs.Var(listFlag{cfg, addBlocking, new([]string)}, "blocking",
		"extra table rows, comma-separated and repeatable: pkg/path.Func or pkg/path.(*Type).Method, each optionally =suggestion (SIO001), or a row of the built-in tables' format: 'pkg/path.(*T).M | use: t.MContext(ctx, ...) | method: MContext' (SIO001), 'pkg/path.NewPool | builds: a connection pool' (SIO004), 'pkg/path.(*T).Wait | hint: use WaitContext(ctx)' (SIO005)")
	fs.Var(listFlag{cfg, addAllow, new([]string)}, "allow",
		"functions that may block (never reported nor propagated), comma-separated and repeatable: pkg/path.Func or pkg/path.(*Type).Method")
	fs.Var(listFlag{cfg, addRoot, new([]string)}, "roots",
		"extra request roots, comma-separated and repeatable: pkg/path.Func, pkg/path.(*Type).Method, or func(*pkg/path.Type) for every function whose first parameter has that type")
	fs.Var(docsFlag{cfg}, "docs",
		"`URL` of the docs/ directory that findings link their fix pages under (JSON url, SARIF helpUri, the text output's closing lines); set it where your copy of the docs is published")
}
