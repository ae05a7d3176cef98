// Package pprofwalk holds run.sh, the "Goroutine and block profiles
// (pprof)" walkthrough of docs/remediation/pprof.md as a script, and the test that
// runs it and checks the guide's quoted profile excerpts against its fresh
// output.
package pprofwalk
