// Package report turns the paths at a root's call into diagnostics: one
// per rule, its chain as related information, the rule's other
// operations named and counted, the suggested fixes that a root's own
// call can take, and the diagnostics about //syncio:ignore comments
// themselves (malformed, stale). Sites in facts ("file:line:col") are
// mapped back to positions here too (sitefile.go), from the file on disk
// when go vet's file set has only a stand-in for it.
//
// It is handed what it needs (Options: the configuration's switches and
// URLs, the table's replacements, the rules' hints it does not word
// itself) and reads no summary: a finding reaches it as paths.
//
// # One diagnostic per rule
//
// A root's call is reported once per rule it leads to (and once each for
// SIO003 and SIO007): the diagnostic is about the rule's first path, names
// up to three other operations after the hint and counts the rest ("; also
// reaches dep.Load → database/sql.(*DB).Query at dep.go:20:15, …, and 2
// more"; "and at least N more" where counts past paths.MaxOps meet), and
// attaches every one as related information at its position, so every
// distinct operation is visible without fixing the first, and -json and
// SARIF carry them all.
//
// # Suppression
//
// //syncio:ignore SIO001[,SIO005] -- reason, on the reported line or the line
// above, or in a function's doc comment for the whole function (and the
// handler literals inside it). In a helper
// it also stops the helper from exporting that finding to its callers. An
// ignore without a reason still suppresses but is itself reported, under the
// first rule it names (SIO000 when it names no valid rule). An ignore that
// hides nothing in this package is reported as stale, unless a rule it
// names is switched off. One at a root's call that leads to interface calls
// is decided by this package's join (carried.go): stale when the join
// reports there and it hides nothing, used when the join has nothing to
// report there (the binding is seen above).
package report
