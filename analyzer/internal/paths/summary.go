package paths

import (
	"go/token"
	"go/types"
	"sort"

	"github.com/syncio/syncio/analyzer/internal/directive"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// Summary is what one function body does, before callees are resolved.
type Summary struct {
	Func *types.Func // nil for func literals
	Name string      // display name of a root
	Root resolve.RootKind
	// Pos, How and Framework describe a root for the roots report
	// (seen.Root): where it is, what made it a root, whose handler it is.
	Pos            token.Pos
	How, Framework string
	Label          string // the root's name in the report, when name is the registering function's
	Wraps          bool   // a literal that calls a handler it was given (resolve.Handlers.Wraps)
	// Key and Branch: seen.Root.Key and Branch (internal/branches).
	Key     string
	Branch  bool
	Sig     *types.Signature
	Items   []Item
	Ignores []*directive.Ignore // the doc comment's //syncio:ignore directives
	Result  *Finding            // set when a non-root function blocks
	// ByRule are, for each rule the function leads to, the paths to its
	// distinct blocking operations (at most MaxOps, in the order of
	// Finding.Better); Result.More is filled from them once the fixpoint
	// is reached. ByRule[""] is the best-ranked path to I/O that is no
	// finding by itself (see KeepIO).
	ByRule map[string][]*Finding
	// Ops are, per rule, every distinct operation (terminal) seen, and
	// Least the most any one item said it leads to (its paths plus their
	// Over): the rule's count is the larger of the two, so operations
	// past MaxOps are counted, not named.
	Ops   map[string]map[string]bool
	Least map[string]int
	// Dyn are the interface calls on the function's paths.
	Dyn []DynCall
	// Opaque: the function passes a context to a call the analysis cannot
	// follow, directly or through callees (see Item.Opaque).
	Opaque bool
	// Unfollowed: the first unresolved call through a func value the
	// function makes, directly or through callees (see Item.Unfollowed).
	Unfollowed string
	// Reported counts the diagnostics emitted at a root's calls.
	Reported int
	// End is where the body ends, for the roots report.
	End token.Pos
	// MemOpaque: it hands one only to memory rows' functions
	// (BlocksFact.OpaqueMemory).
	MemOpaque bool
	// IfGiven is the summary of the items no guard holds (guard.go), for
	// a call that makes all of Guards false; nil when no item is guarded.
	IfGiven *Summary
	Guards  []Guard
}

// WithMore returns the function's result with the other paths attached
// (other rules', and other operations of each rule: MaxTerminals per rule
// with their paths, up to MaxOps named, and the count of the rest), or
// nil.
func (s *Summary) WithMore(lockable map[string]bool) *Finding {
	if s.Result == nil {
		return nil
	}
	f := *s.Result
	f.More = nil
	f.Over = 0
	rules := make([]string, 0, len(s.ByRule))
	for rule := range s.ByRule {
		rules = append(rules, rule)
	}
	sort.Strings(rules)
	if len(rules) > 0 && rules[0] == "" {
		// I/O last: KeepIO looks at every rule's paths.
		rules = append(rules[1:], "")
	}
	main := f.Terminal()
	for _, rule := range rules {
		n := 0
		if rule == f.Rule {
			n = 1
		}
		var out []*Finding
		for _, p := range s.ByRule[rule] {
			if n >= MaxOps {
				break
			}
			if rule == f.Rule && p.Terminal() == main {
				continue
			}
			if rule == "" && !KeepIO(append([]*Finding{&f}, f.More...), p, lockable) {
				continue
			}
			m := *p
			m.More = nil
			m.Over = 0
			if n >= MaxTerminals {
				m = *m.AsRef()
			}
			out = append(out, &m)
			n++
		}
		if over := s.Count(rule) - n; over > 0 {
			if len(out) > 0 {
				out[len(out)-1].Over = over
			} else {
				f.Over = over
			}
		}
		f.More = append(f.More, out...)
	}
	return &f
}

// Count is the number of distinct operations of rule the function leads
// to: exact unless an item's own count was past its MaxOps.
func (s *Summary) Count(rule string) int {
	return max(len(s.Ops[rule]), s.Least[rule])
}

// AddPaths records the paths of one item (fs, as the analyzer resolves
// them, the best first) in ByRule, Ops and Least. It reports whether any changed.
func (s *Summary) AddPaths(fs []*Finding) bool {
	changed := false
	for i, f := range fs {
		if f.Rule == "" {
			// I/O that is no finding by itself: kept for KeepIO, not
			// counted.
			if s.AddPath(f) {
				changed = true
			}
			continue
		}
		if s.AddPath(f) {
			changed = true
		}
		// The item's count for f's rule, once per rule (fs is short).
		first, n := true, 0
		for j, g := range fs {
			if g.Rule == f.Rule {
				if j < i {
					first = false
					break
				}
				n += 1 + g.Over
			}
		}
		if first && n > s.Least[f.Rule] {
			if s.Least == nil {
				s.Least = map[string]int{}
			}
			s.Least[f.Rule] = n
			changed = true
		}
	}
	return changed
}

// KeepIO reports whether the I/O path p (rule "") adds to paths what a
// caller needs: a lock or a transaction that no path has (a helper that
// holds a mutex across a query and also reads a file: with SIO006 on,
// the file read is the main path and the lock would be lost), or I/O that
// a caller's lock makes SIO003 when no path is lockable. lockable are
// the rules whose operation a lock held across it makes SIO003, which the
// rules decide.
func KeepIO(paths []*Finding, p *Finding, lockable map[string]bool) bool {
	lock, tx, lockablePath := false, false, false
	for _, q := range paths {
		lock = lock || q.Lock != ""
		tx = tx || q.Tx != ""
		lockablePath = lockablePath || lockable[q.Rule]
	}
	return p.Lock != "" && !lock || p.Tx != "" && !tx || !lockablePath
}

// AddPath records a path of f's rule: its operation in Ops, and the path
// in ByRule, kept in the order of Finding.Better (equals in the order
// found) and cut at MaxOps; past MaxTerminals only the operation is kept
// (Finding.AsRef), as the fact will. A better path to an operation already
// there replaces it, and so does a full path to one of the first
// MaxTerminals known only by name. It reports whether anything changed.
func (s *Summary) AddPath(f *Finding) bool {
	if s.ByRule == nil {
		s.ByRule = map[string][]*Finding{}
		s.Ops = map[string]map[string]bool{}
	}
	list := s.ByRule[f.Rule]
	if f.Rule == "" {
		// I/O that is no finding by itself: only the best-ranked path
		// (under a lock, across a transaction) is kept, for summary's
		// KeepIO; it is no operation of a rule, so not in ops.
		if len(list) > 0 && f.Rank() <= list[0].Rank() {
			return false
		}
		s.ByRule[""] = []*Finding{f}
		return true
	}
	changed := false
	k := f.Terminal()
	if s.Ops[f.Rule] == nil {
		s.Ops[f.Rule] = map[string]bool{}
	}
	if !s.Ops[f.Rule][k] {
		s.Ops[f.Rule][k] = true
		changed = true
	}
	for i, old := range list {
		if old.Terminal() != k {
			continue
		}
		if !f.Better(old) {
			if old.Ref && !f.Ref && i < MaxTerminals && !old.Better(f) {
				list[i] = f
				return true
			}
			return changed
		}
		list = append(list[:i:i], list[i+1:]...)
		break
	}
	if len(list) >= MaxOps && !f.Better(list[len(list)-1]) {
		s.ByRule[f.Rule] = list
		return changed
	}
	at := len(list)
	for i, old := range list {
		if f.Better(old) {
			at = i
			break
		}
	}
	list = append(list[:at:at], append([]*Finding{f}, list[at:]...)...)
	if len(list) > MaxOps {
		list = list[:MaxOps]
	}
	for i := MaxTerminals; i < len(list); i++ {
		list[i] = list[i].AsRef()
	}
	s.ByRule[f.Rule] = list
	return true
}

// AddDyn merges ds into s.Dyn, keeping the first path to each interface
// call; it reports whether anything was added.
func (s *Summary) AddDyn(ds []DynCall) bool {
	changed := false
	own, dep := 0, 0
	for i := range s.Dyn {
		if s.Dyn[i].Dep {
			dep++
		} else {
			own++
		}
	}
	for _, d := range ds {
		if (d.Dep && dep >= maxDepDyn) || (!d.Dep && own >= maxDyn) {
			continue
		}
		k := d.Key()
		dup := false
		for i := range s.Dyn {
			if s.Dyn[i].Key() == k {
				dup = true
				break
			}
		}
		if !dup {
			s.Dyn = append(s.Dyn, d)
			changed = true
			if d.Dep {
				dep++
			} else {
				own++
			}
		}
	}
	return changed
}
