package join

import (
	"go/ast"
	"go/types"
	"sort"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// Functions stored into a slot that a request root calls are request
// roots themselves.
//
// A router of the program's own (pocketbase's tools/router) keeps each
// route's handler in a field (Route[T].Action) and calls it from one
// request root, a literal serving every route. Followed only through the
// slot (stores.go), every handler's operations would be reported at that
// one call, merged, where nobody can fix or ignore them. So the root's
// package says which slots its roots call themselves (RootSlotsFact), and
// a package above it that stores a function there (directly, or by
// passing it to a parameter its callee stores, resolve.StoresFact) makes
// that function a root, as a registration call would: reported inside
// it, at its own calls. Recorder.Stores records no binding for it, so
// the call through the slot no longer leads there.
//
// Analysis is bottom-up, so this needs the root's package below the
// storing one (pocketbase's apis imports tools/router). When it is not
// (the root's package imports the storing one, or neither imports the
// other), the storing package sees no fact and the stored function is
// followed through the slot as before, reported at the root's call:
// nothing is lost, only merged.

// RootSlotsFact lists the slots the package's request roots call
// themselves: through the slot, or by handing the value read from it to
// a parameter the callee calls on the spot (routeHook.Trigger(event,
// v.Action)). A call reached only through a callee (a hook's own
// handlers, called inside Trigger) is not listed: which of the functions
// stored there a request runs is the callee's business, and dispatch
// still follows it.
type RootSlotsFact struct{ Slots []RootSlot }

// RootSlot is one slot a request root calls.
type RootSlot struct {
	Key string
	// Sig is the call's func type for a generic type's field (resolve.Sig),
	// "" when the call is in generic code or the slot is no generic field.
	Sig       string
	Framework string // the calling root's, for the roots report
}

// AFact marks RootSlotsFact as a package fact.
func (*RootSlotsFact) AFact() {}

// String is the fact as the tests' // want lines state it.
func (f *RootSlotsFact) String() string { return "rootslots(" + strconv.Itoa(len(f.Slots)) + ")" }

// SlotRoots are the functions a package stores into slots that a
// request root below calls.
type SlotRoots struct {
	funcs map[*types.Func]string  // this package's functions, by framework
	lits  map[*ast.FuncLit]string // this package's literals, by framework
	ext   map[*types.Func]bool    // other packages' functions, roots at the store
}

// Func reports whether fn, of this package, is stored into a slot that a
// root below calls, and that root's framework.
func (s *SlotRoots) Func(fn *types.Func) (string, bool) {
	fw, ok := s.funcs[fn]
	return fw, ok
}

// Lit is Func for a literal of this package.
func (s *SlotRoots) Lit(lit *ast.FuncLit) (string, bool) {
	fw, ok := s.lits[lit]
	return fw, ok
}

// Ext reports whether fn, of another package, is a root at a store of
// this package's.
func (s *SlotRoots) Ext(fn *types.Func) bool { return s.ext[fn.Origin()] }

// ExportRootSlots exports the slots the package's roots call themselves,
// with the framework of each root's kind. A dependency's roots call
// through no slot (the analyzer's slotItems), and a call through a field
// of one value (paths.DynCall.One) is left to dispatch, which follows it
// only when one place stores there.
func ExportRootSlots(pass *analysis.Pass, thirdParty bool, roots []*paths.Summary, framework func(resolve.RootKind) string) {
	if thirdParty {
		return
	}
	seenSlot := map[RootSlot]bool{}
	var out []RootSlot
	for _, s := range roots {
		for _, it := range s.Items {
			d := it.Dyn
			if d == nil || d.Method != "" || d.One || len(d.Chain) != 1 {
				continue
			}
			rs := RootSlot{Key: d.Iface, Sig: d.Sig, Framework: framework(s.Root)}
			if s.Framework != "" {
				rs.Framework = s.Framework
			}
			if !seenSlot[rs] {
				seenSlot[rs] = true
				out = append(out, rs)
			}
		}
	}
	if len(out) == 0 {
		return
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		if a.Sig != b.Sig {
			return a.Sig < b.Sig
		}
		return a.Framework < b.Framework
	})
	pass.ExportPackageFact(&RootSlotsFact{Slots: out})
}

// FindSlotRoots finds the functions the package stores into slots that
// the roots of the packages below call (after resolve.Stored.Scan): this
// package's functions and literals, made roots in the analyzer's root
// pass, and another package's, which ext makes a root at the store st
// with its fact.
func FindSlotRoots(pass *analysis.Pass, thirdParty bool, below []Carried, stored *resolve.Stored, handlers *resolve.Handlers,
	ext func(fn *types.Func, st resolve.Store, framework string)) *SlotRoots {
	sr := &SlotRoots{funcs: map[*types.Func]string{}, lits: map[*ast.FuncLit]string{}, ext: map[*types.Func]bool{}}
	if thirdParty || len(stored.All()) == 0 {
		return sr
	}
	called := map[string][]RootSlot{}
	sigs := map[string]map[string]bool{} // generic slots: the func types stored there, as seen here
	for _, pf := range below {
		switch f := pf.Fact.(type) {
		case *RootSlotsFact:
			for _, s := range f.Slots {
				called[s.Key] = append(called[s.Key], s)
			}
		case *ConvFact:
			for _, c := range f.Convs {
				if c.Sig != "" && (len(c.Methods) > 0 || c.Root) {
					if sigs[c.Iface] == nil {
						sigs[c.Iface] = map[string]bool{}
					}
					sigs[c.Iface][c.Sig] = true
				}
			}
		}
	}
	if len(called) == 0 {
		return sr
	}
	info := pass.TypesInfo
	for _, st := range stored.All() {
		if sig := resolve.Sig(info.TypeOf(st.Value)); sig != "" && called[st.Slot] != nil {
			if sigs[st.Slot] == nil {
				sigs[st.Slot] = map[string]bool{}
			}
			sigs[st.Slot][sig] = true
		}
	}
	for _, st := range stored.All() {
		fw, ok := slotCalled(info, called[st.Slot], st, sigs[st.Slot])
		if !ok || stored.IsParam(st) {
			continue
		}
		ts, _ := handlers.Resolve(st.Value)
		for _, t := range ts {
			switch {
			case t.Lit != nil:
				if _, ok := sr.lits[t.Lit]; !ok {
					sr.lits[t.Lit] = fw
				}
			case t.Call || t.Func == nil:
			case t.Func.Pkg() == pass.Pkg:
				if _, ok := sr.funcs[t.Func]; !ok {
					sr.funcs[t.Func] = fw
				}
			case t.Func.Pkg() != nil && !knowledge.StdPath(t.Func.Pkg().Path()):
				sr.ext[t.Func.Origin()] = true
				ext(t.Func, st, fw)
			}
		}
	}
	return sr
}

// slotCalled says whether a root calls the slot st stores into, with the
// framework of that root: for a generic type's field, a call of st's
// func type, or a call in generic code when the functions stored there
// are of one type, as dispatch would follow it.
func slotCalled(info *types.Info, calls []RootSlot, st resolve.Store, sigs map[string]bool) (string, bool) {
	sig := resolve.Sig(info.TypeOf(st.Value))
	for _, c := range calls {
		switch {
		case !resolve.Generic(c.Key):
		case c.Sig != "":
			if sig != "" && sig != c.Sig {
				continue
			}
		case len(sigs) > 1:
			continue
		}
		return c.Framework, true
	}
	return "", false
}
