package analyzer

import (
	"flag"
	"fmt"
	"sort"
	"strings"
)

// Replacement describes the context-aware variant of a context-less call
// (SIO001). Keys of Config.Blocking name the call: "net/http.Get" for a
// package-level function, "database/sql.(*DB).Query" for a method with a
// pointer receiver and "pkg/path.T.M" for a value receiver.
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
}

// Config selects the rules an Analyzer reports and the SIO001 call table.
type Config struct {
	// Rules is the set of enabled rule IDs. Rules missing from the map
	// are disabled.
	Rules map[string]bool
	// Blocking maps a call key to its context-aware replacement.
	Blocking map[string]Replacement
}

// DefaultConfig enables every rule that is not opt-in and uses the
// built-in SIO001 table.
func DefaultConfig() Config {
	cfg := Config{Rules: map[string]bool{}, Blocking: map[string]Replacement{}}
	for _, r := range Rules {
		if !r.OptIn {
			cfg.Rules[r.ID] = true
		}
	}
	for k, v := range defaultBlocking {
		cfg.Blocking[k] = v
	}
	return cfg
}

// enabled reports whether rule id is on.
func (c *Config) enabled(id string) bool { return c.Rules[id] }

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
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		if _, ok := RuleByID(id); !ok {
			return fmt.Errorf("unknown rule %q", id)
		}
		rules[id] = true
	}
	f.cfg.Rules = rules
	return nil
}

func registerFlags(fs *flag.FlagSet, cfg *Config) {
	fs.Var(rulesFlag{cfg}, "rules", "comma-separated rule IDs to enable (default: every rule that is not opt-in)")
}
