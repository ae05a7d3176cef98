package config

import (
	"maps"
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
	// taking a context (SIO002's decision).
	Memory map[string]bool
	// Exits holds the calls that end the process (exit rows): a block
	// ending in one is no request path.
	Exits map[string]bool
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
	// GinContextFallback says whether the program sets gin's
	// Engine.ContextWithFallback = true, so that a *gin.Context is the
	// request's context. nil (the default) lets syncio decide from the
	// program: the package that builds the engine or sets the field, or
	// main (internal/ginsetting); true or false decides for every package,
	// for a program whose engine syncio does not see.
	GinContextFallback *bool
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

// FixURL is the URL a diagnostic of rule carries: its fix page under
// the docs base.
func (c *Config) FixURL(rule string) string { return c.docs() + FixPage(rule) }

// SuppressionURL is the URL a diagnostic about a //syncio:ignore carries.
func (c *Config) SuppressionURL() string { return c.docs() + SuppressionPage }

func (c *Config) docs() string {
	if c.DocsBase == "" {
		return DefaultDocsBase
	}
	return c.DocsBase
}

// Default enables every rule that is not opt-in and uses the built-in
// call tables.
func Default() Config {
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
	cfg.Exits = maps.Clone(t.exits)
	return cfg
}

func cloneBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}

// Clone deep-copies c so that flags can change the copy.
func (c Config) Clone() *Config {
	n := &Config{Rules: map[string]bool{}, Blocking: map[string]Replacement{}, Allow: map[string]bool{},
		Clients: map[string]string{}, Waits: map[string]string{}, Files: map[string]bool{}, IO: map[string]bool{}, Memory: map[string]bool{}, Exits: map[string]bool{},
		Tests: c.Tests, ReportIgnored: c.ReportIgnored,
		GinContextFallback: cloneBool(c.GinContextFallback), StrictRoots: c.StrictRoots, DocsBase: c.DocsBase}
	maps.Copy(n.Rules, c.Rules)
	maps.Copy(n.Blocking, c.Blocking)
	maps.Copy(n.Allow, c.Allow)
	maps.Copy(n.Clients, c.Clients)
	maps.Copy(n.Waits, c.Waits)
	maps.Copy(n.Files, c.Files)
	maps.Copy(n.IO, c.IO)
	maps.Copy(n.Memory, c.Memory)
	maps.Copy(n.Exits, c.Exits)
	n.Roots = append(n.Roots, c.Roots...)
	return n
}

// Enabled reports whether rule id is on.
func (c *Config) Enabled(id string) bool { return c.Rules[id] }
