package analyzer

import "github.com/syncio/syncio/analyzer/internal/config"

// The configuration and the rule catalogue live in internal/config; these
// are their public names, which the drivers, the golangci-lint plugin and
// users' code import.

// Replacement describes the context-aware variant of a context-less call
// (SIO001); see config.Replacement.
type Replacement = config.Replacement

// Config selects the rules an Analyzer reports and the call tables they
// read; see config.Config.
type Config = config.Config

// Settings are the configuration keys shared by the CLI flags and the
// golangci-lint plugin settings; see config.Settings.
type Settings = config.Settings

// DefaultConfig enables every rule that is not opt-in and uses the
// built-in call tables.
func DefaultConfig() Config { return config.Default() }

// Rule describes one entry of the rule catalogue; see config.Rule.
type Rule = config.Rule

// Rules is the rule catalogue, in ID order.
var Rules = config.Rules

// DefaultDocsBase is where the project's docs/ directory is published when
// nothing else is said (see Config.DocsBase).
const DefaultDocsBase = config.DefaultDocsBase

// SuppressionPage is the docs page (relative to the docs base) that a
// diagnostic about a //syncio:ignore directive links.
const SuppressionPage = config.SuppressionPage

// RulePage is a rule's own page, relative to the docs base.
func RulePage(id string) string { return config.RulePage(id) }

// RuleURL returns the URL of a rule's page under DefaultDocsBase.
func RuleURL(id string) string { return config.RuleURL(id) }

// FixPage is the page, relative to the docs base, with the fixes for a
// rule's findings.
func FixPage(id string) string { return config.FixPage(id) }

// FixURL returns the URL of a rule's fix page under DefaultDocsBase.
func FixURL(id string) string { return config.FixURL(id) }

// RuleByID returns the catalogue entry for id.
func RuleByID(id string) (Rule, bool) { return config.RuleByID(id) }

// runConfig is the configuration as one package's analysis reads it: the
// Config, and the roots it names matched against the package's functions
// (roots.go), which needs resolve: config sits below it.
type runConfig struct{ *Config }
