package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/syncio/syncio/analyzer"
)

// ErrUnsupported is wrapped by the error Settings.Config returns for a key
// that is part of the documented settings but that this version of the
// analyzer cannot honour yet. It is an error, not a warning, so that a CI
// configuration never silently means less than it says.
var ErrUnsupported = errors.New("not supported yet by this syncio version")

// Settings are the plugin settings, the same keys as the syncio CLI's
// configuration. Unknown keys are rejected by register.DecodeSettings.
type Settings struct {
	// Rules enables or disables rules by ID. A list is the exact set of
	// enabled rules, as the CLI's -rules flag; a map switches rules on or
	// off relative to the defaults (every rule that is not opt-in).
	Rules Rules `json:"rules"`
	// Blocking adds SIO001 calls, each "pkg/path.Func",
	// "pkg/path.(*Type).Method" or "pkg/path.Type.Method", optionally
	// followed by "=suggestion" (the text after "use" in the message).
	Blocking []string `json:"blocking"`
	// Tests asks for _test.go files to be analysed too. Not supported
	// yet: test files are never request paths, so only false is accepted.
	Tests *bool `json:"tests"`
	// Allow lists functions that may block. Not supported yet.
	Allow []string `json:"allow"`
	// Roots lists extra request roots. Not supported yet.
	Roots []string `json:"roots"`
}

// Rules is the "rules" setting: either a list of rule IDs or a map from
// rule ID to on/off. IDs are case-insensitive, because golangci-lint's
// configuration loader lower-cases map keys.
type Rules struct {
	set     []string        // list form; nil when absent
	toggles map[string]bool // map form
}

// UnmarshalJSON accepts a list of IDs or a map of ID to bool.
func (r *Rules) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		return nil
	case len(b) > 0 && b[0] == '[':
		var ids []string
		if err := json.Unmarshal(b, &ids); err != nil {
			return fmt.Errorf("rules: a list must hold rule IDs: %w", err)
		}
		r.set = ids
		if r.set == nil {
			r.set = []string{}
		}
		return nil
	default:
		var m map[string]bool
		if err := json.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("rules: want a list of rule IDs or a map of rule ID to true/false: %w", err)
		}
		r.toggles = m
		return nil
	}
}

// apply changes the enabled rules of cfg.
func (r Rules) apply(cfg *analyzer.Config) error {
	if r.set != nil {
		cfg.Rules = map[string]bool{}
		for _, id := range r.set {
			id, err := ruleID(id)
			if err != nil {
				return err
			}
			cfg.Rules[id] = true
		}
	}
	// Sorted so that the first bad ID reported is deterministic.
	keys := make([]string, 0, len(r.toggles))
	for k := range r.toggles {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		id, err := ruleID(k)
		if err != nil {
			return err
		}
		cfg.Rules[id] = r.toggles[k]
	}
	return nil
}

func ruleID(s string) (string, error) {
	id := strings.ToUpper(strings.TrimSpace(s))
	if _, ok := analyzer.RuleByID(id); !ok {
		return "", fmt.Errorf("rules: unknown rule %q", s)
	}
	return id, nil
}

// defaultUse is the suggestion for a user-declared blocking call that
// names none.
const defaultUse = "a variant that takes the request context"

// Config maps the settings onto the analyzer configuration, starting from
// analyzer.DefaultConfig. It is the one place where settings become a
// Config.
func (s Settings) Config() (analyzer.Config, error) {
	cfg := analyzer.DefaultConfig()
	if s.Tests != nil && *s.Tests {
		return analyzer.Config{}, unsupported("tests", "test files are never analysed as request paths")
	}
	if len(s.Allow) > 0 {
		return analyzer.Config{}, unsupported("allow", "")
	}
	if len(s.Roots) > 0 {
		return analyzer.Config{}, unsupported("roots", "mark a root with a //syncio:handler doc comment instead")
	}
	if err := s.Rules.apply(&cfg); err != nil {
		return analyzer.Config{}, err
	}
	for _, b := range s.Blocking {
		key, use, err := parseBlocking(b)
		if err != nil {
			return analyzer.Config{}, err
		}
		cfg.Blocking[key] = analyzer.Replacement{Use: use}
	}
	return cfg, nil
}

func unsupported(key, hint string) error {
	if hint != "" {
		return fmt.Errorf("key %q is %w (%s)", key, ErrUnsupported, hint)
	}
	return fmt.Errorf("key %q is %w", key, ErrUnsupported)
}

// parseBlocking splits "pkg/path.Func=suggestion" into the analyzer's call
// key and the suggestion.
func parseBlocking(s string) (key, use string, err error) {
	key, use, _ = strings.Cut(s, "=")
	key, use = strings.TrimSpace(key), strings.TrimSpace(use)
	// The package path ends at the last slash; what follows must be
	// pkgname.Func or pkgname.(*T).M / pkgname.T.M.
	last := key[strings.LastIndex(key, "/")+1:]
	if key == "" || strings.ContainsAny(key, " \t") || !strings.Contains(last, ".") ||
		strings.HasSuffix(key, ".") || strings.HasPrefix(last, ".") {
		return "", "", fmt.Errorf("blocking: %q is not pkg/path.Func or pkg/path.(*Type).Method", s)
	}
	if use == "" {
		use = defaultUse
	}
	return key, use, nil
}
