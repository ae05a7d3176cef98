// Package gate evaluates CI assertions on a run's summary: expressions
// such as `candidate.ok_per_s >= 5*baseline.ok_per_s` over a documented
// set of fields of the baseline's and the candidate's top step. An
// unknown field or a malformed expression is an error before the run
// starts; a false one names itself and the values it read.
package gate
