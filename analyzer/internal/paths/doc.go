// Package paths is the path model: what one function body does (Summary,
// its Items), a blocking path as seen from one call (Finding), and the
// fact a function exports to the packages above (BlocksFact), with the
// bounds that keep a fact small (MaxTerminals, MaxOps) and the marks of a
// lock held through a method's receiver (locks.go).
//
// It decides no rule. Where a rule's judgement shapes a path (which rules
// a held lock makes SIO003), the rules hand it in.
package paths
