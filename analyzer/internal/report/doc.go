// Package report turns the paths at a root's call into diagnostics: one
// per rule, its chain as related information, the rule's other
// operations named and counted, the suggested fixes that a root's own
// call can take, and the diagnostics about //syncio:ignore comments
// themselves (malformed, stale).
//
// It is handed what it needs (Options: the configuration's switches and
// URLs, the table's replacements, the rules' hints it does not word
// itself) and reads no summary: a finding reaches it as paths.
package report
