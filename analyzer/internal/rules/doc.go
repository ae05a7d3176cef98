// Package rules decides what one operation breaks: each rule's judgement
// of a call, a literal or a path in a file of its own (blocking.go
// SIO001, held.go SIO003 and SIO007, client.go SIO004, wait.go SIO005's
// waits and channel operations, file.go SIO006), with the rule's
// wording. It reads the package only through Pkg and the body through
// dataflow, so a rule is decided without the runner; the rules that weigh
// several functions' summaries (SIO002's deferred decision, SIO005's
// joins) are still the analyzer's.
package rules
