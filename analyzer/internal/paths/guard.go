package paths

import (
	"go/token"
	"slices"
	"strconv"
)

// Guards: what a body does only while a context its caller gives is nil.
// A request helper builds its request with http.NewRequest when no context
// was set (`if options.ctx == nil`, or the else of `!= nil`), and with the
// context otherwise; a caller that passes one never takes that branch,
// a caller that passes none (or nil) does (pocketbase's dbx runs its query
// without a context exactly then). So the branch is judged at each call:
// a function whose items sit under such guards has a second summary
// without them (Summary.IfGiven, BlocksFact.IfGiven), which a call that
// makes every guard false leads to instead (internal/dataflow's NilGuards
// and CtxGiven find the guards and what a call gives).

// ParamKey is what a call gives when its i-th argument (the receiver not
// counted) is a context that is not the literal nil.
func ParamKey(i int) string { return "param:" + strconv.Itoa(i) }

// OptionKey is what a call gives when one of its variadic arguments is
// built by the function fn (qualified, knowledge.Qualified) from a
// context that is not the literal nil: a functional option that sets
// the context (request.WithContext(ctx)).
func OptionKey(fn string) string { return "option:" + fn }

// Guard is one nil test on a context: the keys any of which, given at a
// call, make it false (every option that sets the field).
type Guard []string

// GuardSpan is a stretch of a body, [Start, End), that runs only while
// its Guard holds.
type GuardSpan struct {
	Start, End token.Pos
	Guard      Guard
}

// MarkGuards sets the guard of the items inside spans (Item.Guard).
func MarkGuards(items []Item, spans []GuardSpan) {
	for i := range items {
		for _, s := range spans {
			if s.Start <= items[i].Pos && items[i].Pos < s.End {
				items[i].Guard = s.Guard
				break
			}
		}
	}
}

// Off reports whether a call that gives the keys given makes every one
// of guards false.
func Off(guards []Guard, given []string) bool {
	if len(guards) == 0 {
		return false
	}
	for _, g := range guards {
		if !slices.ContainsFunc(g, func(k string) bool { return slices.Contains(given, k) }) {
			return false
		}
	}
	return true
}

// SplitGuards gives s, when some of its items are guarded, the summary of
// its other items (IfGiven) and the guards (Guards); the fixpoint
// summarises both.
func (s *Summary) SplitGuards() {
	var guards []Guard
	var rest []Item
	for _, it := range s.Items {
		if it.Guard == nil {
			rest = append(rest, it)
		} else if !slices.ContainsFunc(guards, func(g Guard) bool { return slices.Equal(g, it.Guard) }) {
			guards = append(guards, it.Guard)
		}
	}
	if len(guards) == 0 {
		return
	}
	g := *s
	g.Items = rest
	s.IfGiven, s.Guards = &g, guards
}

// Fact is s's paths (with More, WithMore) and interface calls as a fact,
// with its IfGiven's beside them.
func (s *Summary) Fact(lockable map[string]bool) *BlocksFact {
	bf := &BlocksFact{}
	if s.Result != nil {
		bf = s.WithMore(lockable).Fact()
	}
	bf.Dyn = s.Dyn
	if s.IfGiven != nil {
		bf.Guards, bf.IfGiven = s.Guards, s.IfGiven.Fact(lockable)
	}
	return bf
}

// ForCall returns what a call that gives the keys given leads to: f, or
// its IfGiven when the call makes every guard false.
func (f *BlocksFact) ForCall(given []string) *BlocksFact {
	if f != nil && f.IfGiven != nil && Off(f.Guards, given) {
		return f.IfGiven
	}
	return f
}
