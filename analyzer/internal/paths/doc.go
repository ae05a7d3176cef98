// Package paths is the path model: what one function body does (Summary,
// its Items), a blocking path as seen from one call (Finding), and the
// fact a function exports to the packages above (BlocksFact), with the
// bounds that keep a fact small (MaxTerminals, MaxOps) and the marks of a
// lock held through a method's receiver (locks.go), the instances of
// internal/dispatch's model with BlocksFact as their payload (dyn.go), and
// ExitsFact, the mark of a function that ends the process (exits.go), so
// that a caller's branch ending in it is no request path in any package,
// and the guards of items that run only under a nil context the caller
// gives, with the summary a call that passes one leads to (guard.go).
//
// It decides no rule. Where a rule's judgement shapes a path (which rules
// a held lock makes SIO003), the rules hand it in.
//
// # Facts and their bounds
//
// Every function that is not a root and blocks (directly or through static
// callees, recursion included) exports a BlocksFact with its chain, so
// callers in other packages see it under any go/analysis driver. A function
// that only does context-aware I/O exports a weaker fact (no rule) so that a
// caller holding a lock across it is SIO003; a fact records its
// highest-ranked path (rule + lock, rule, I/O under a lock, plain I/O; an
// open transaction breaks ties; for the same rule, the better kind) and,
// for each rule, its distinct blocking operations (terminals: name and
// site) in the order of Finding.Better: rank, then kind
// (internal/knowledge/kinds.txt: remote calls and waits on other
// goroutines, then databases and caches, then unclassified, then local
// work), then the order found. The first MaxTerminals (4) keep their
// paths, up to MaxOps (16) are named by operation and site only (Ref),
// and the rest are counted (Over), so the fact is bounded per rule; plus,
// when no other path carries what it does, its best path to I/O that is
// no finding by itself (under a lock, across a transaction, or lockable
// when no other path is), so a file read that ranks higher (SIO006 on)
// does not hide a SIO003 there (KeepIO).
package paths
