// Package dataflow follows values through one function body, for the
// rules to judge an operation by: where a context comes from (ctxflow.go),
// whether a query builder's chain carries one and the library shapes a
// table row cannot state (libs.go), what a body does later with a request
// or command it makes (later.go), which stretches run only under a nil
// context a caller gives and what a call gives (nilctx.go), and whose receiver a method call is on
// (lockowner.go). It needs only the body and its types, no other function's
// summary, so the rules below which the runner sits can use it; it decides
// no rule: the wording and the rule IDs are the rules' own.
package dataflow
