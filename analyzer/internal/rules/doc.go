// Package rules decides what one operation breaks: each rule's judgement
// of a call, a literal or a path in a file of its own (blocking.go
// SIO001, dropped.go SIO002, held.go SIO003 and SIO007, client.go
// SIO004, wait.go SIO005's waits, channel operations and joins, file.go
// SIO006), with the rule's wording. It reads the package only through Pkg
// and the body through dataflow, so a rule is decided without the runner;
// what only the analyzer knows (another package's fact, a function's
// summary, what joined work leads to, the join's walk) is handed in as
// values, and a rule never learns how it was found. It must not know the
// driver, the runner's layers or how diagnostics are made (report).
package rules
