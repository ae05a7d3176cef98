// Package remediation holds the code of the remediation guide
// (docs/remediation.md): one directory per fix, each with a "before"
// package that syncio flags and an "after" package that it does not.
// workerrelease/wrapped is the exception: the "fake async" that syncio
// cannot see, kept so the guide can show what the linter misses.
//
// Lines in a "before" package that syncio must report end with a marker
// comment naming the rules, "// syncio: SIO001"; a line syncio should
// report but does not would end with "// syncio-missed: SIO00N"
// instead, and the test checks it stays unreported (none does today). The tests in this
// package run syncio over every example in one checker run and compare
// its findings with the markers; they also check that every Go block in
// the guide is quoted verbatim from the file it names, and that the
// Prometheus alert rules and the Grafana dashboard in docs/monitoring use
// only series that the demo API's /metrics serves.
//
// The examples are meant to compile and to be analysed, not to be run as
// a service: nothing here opens a database or listens on a port.
package remediation
