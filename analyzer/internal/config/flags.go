package config

import (
	"flag"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

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

// ginFlag is -gin-context-fallback: a boolean flag whose absence is a
// third value (decide from the program), so that -gin-context-fallback=false
// can say "the engine keeps gin's default" where syncio cannot see it.
type ginFlag struct{ cfg *Config }

func (f ginFlag) String() string {
	if f.cfg == nil || f.cfg.GinContextFallback == nil {
		return ""
	}
	return strconv.FormatBool(*f.cfg.GinContextFallback)
}

func (f ginFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false (or leave it out to let syncio decide from the program), not %q", s)
	}
	f.cfg.GinContextFallback = &v
	return nil
}

// IsBoolFlag lets -gin-context-fallback stand alone for true.
func (ginFlag) IsBoolFlag() bool { return true }

// RegisterFlags registers the flags that change cfg: one per Settings
// key, through the same parsers, and -report-ignored.
func RegisterFlags(fs *flag.FlagSet, cfg *Config) {
	// The flag package appends the default (the Value's String), so the
	// usage names only what that list leaves out.
	fs.Var(rulesFlag{cfg}, "rules", "comma-separated rule IDs to run, and only those; the opt-in rules ("+strings.Join(optIn(), ", ")+") run only when listed")
	fs.BoolVar(&cfg.Tests, "tests", cfg.Tests, "also analyse _test.go files")
	fs.BoolVar(&cfg.ReportIgnored, "report-ignored", cfg.ReportIgnored,
		"also report findings that //syncio:ignore comments hide (to join them with -confirm)")
	fs.Var(ginFlag{cfg}, "gin-context-fallback",
		"whether the program sets gin's Engine.ContextWithFallback = true, so that a *gin.Context is the request's context: true or false for a program whose engine syncio does not analyse; unset, syncio decides from the package that builds the engine or sets the field, or main")
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

// optIn returns the IDs of the opt-in rules.
func optIn() []string {
	var ids []string
	for _, r := range Rules {
		if r.OptIn {
			ids = append(ids, r.ID)
		}
	}
	return ids
}
