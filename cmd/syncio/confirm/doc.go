// Package confirm joins syncio's static findings with what a
// blockwatch.Watcher saw at run time (the JSON of /debug/syncio/blocking):
// a finding is confirmed when a sampled blocking stack passes through its
// call site, with the share of request time spent there; a sampled site
// that no finding covers is a blocking wait the linter missed.
//
// Matching is by source position, not by name: every non-innermost frame
// of a goroutine stack records the line of the call it is in, and a finding
// sits on the request root's call that leads to the blocking operation, so
// a stack "passes through" a finding when one of its frames is in the
// finding's file within the finding's lines.
package confirm
