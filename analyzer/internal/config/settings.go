package config

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

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
	// an SIO005 wait row; "| kind: file", "| kind: io", "| kind: noio" and
	// "| kind: exit" rows take no field; any row may end in "| evidence:
	// text". The older "key=suggestion" form is an SIO001 row with only a
	// use.
	Blocking []string `json:"blocking"`
	// Allow lists functions (same syntax, no suggestion) that may block.
	Allow []string `json:"allow"`
	// Roots lists extra request roots: function names (same syntax) or
	// "func(pkg/path.Type)" / "func(*pkg/path.Type)" first-parameter
	// patterns.
	Roots []string `json:"roots"`
	// GinContextFallback: whether the program sets gin's
	// Engine.ContextWithFallback = true (see Config); unset, syncio
	// decides from the program.
	GinContextFallback *bool `json:"gin-context-fallback"`
	// StrictRoots reports a package that registers routes but where no
	// request root was found (see Config.StrictRoots).
	StrictRoots bool `json:"strict-roots"`
	// Docs is the URL of the docs/ directory that findings link to their
	// fix pages under (default DefaultDocsBase): set it when the project's
	// docs are published elsewhere, e.g. a fork or an internal mirror.
	Docs string `json:"docs"`
}

// Config validates s and returns the configuration it describes, starting
// from Default.
func (s Settings) Config() (Config, error) {
	cfg := Default()
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
	cfg.GinContextFallback = cloneBool(s.GinContextFallback)
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
