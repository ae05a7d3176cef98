package analyzer

import (
	"go/ast"
	"go/types"
	"sort"
	"strconv"

	"github.com/syncio/syncio/analyzer/internal/directive"
	"github.com/syncio/syncio/analyzer/internal/join"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/seen"
)

// Functions stored into a slot that a request root calls are request
// roots themselves.
//
// A router of the program's own (pocketbase's tools/router) keeps each
// route's handler in a field (Route[T].Action) and calls it from one
// request root, a literal serving every route. Followed only through the
// slot (stored.go), every handler's operations would be reported at that
// one call, merged, where nobody can fix or ignore them. So the root's
// package says which slots its roots call themselves (rootSlotsFact), and
// a package above it that stores a function there (directly, or by
// passing it to a parameter its callee stores, resolve.StoresFact) makes
// that function a root, as a registration call would: reported inside
// it, at its own calls. recordStores records no binding for it, so the call
// through the slot no longer leads there.
//
// Analysis is bottom-up, so this needs the root's package below the
// storing one (pocketbase's apis imports tools/router). When it is not
// (the root's package imports the storing one, or neither imports the
// other), the storing package sees no fact and the stored function is
// followed through the slot as before, reported at the root's call:
// nothing is lost, only merged.

// rootSlotsFact lists the slots the package's request roots call
// themselves: through the slot, or by handing the value read from it to
// a parameter the callee calls on the spot (routeHook.Trigger(event,
// v.Action)). A call reached only through a callee (a hook's own
// handlers, called inside Trigger) is not listed: which of the functions
// stored there a request runs is the callee's business, and dispatch
// still follows it.
type rootSlotsFact struct{ Slots []rootSlot }

// rootSlot is one slot a request root calls.
type rootSlot struct {
	Key string
	// Sig is the call's func type for a generic type's field (resolve.Sig),
	// "" when the call is in generic code or the slot is no generic field.
	Sig       string
	Framework string // the calling root's, for the roots report
}

func (*rootSlotsFact) AFact() {}

func (f *rootSlotsFact) String() string { return "rootslots(" + strconv.Itoa(len(f.Slots)) + ")" }

// slotRoots are the functions this package stores into slots that a
// request root below calls.
type slotRoots struct {
	funcs map[*types.Func]string  // this package's functions, by framework
	lits  map[*ast.FuncLit]string // this package's literals, by framework
	ext   map[*types.Func]bool    // other packages' functions, roots at the store
}

// exportRootSlots exports the slots the package's roots call themselves.
// A dependency's roots call through no slot (slotItems), and a call
// through a field of one value (paths.DynCall.One) is left to dispatch, which
// follows it only when one place stores there.
func (r *pkgView) exportRootSlots(roots []*paths.Summary) {
	if r.thirdParty {
		return
	}
	seenSlot := map[rootSlot]bool{}
	var out []rootSlot
	for _, s := range roots {
		for _, it := range s.Items {
			d := it.Dyn
			if d == nil || d.Method != "" || d.One || len(d.Chain) != 1 {
				continue
			}
			rs := rootSlot{Key: d.Iface, Sig: d.Sig, Framework: frameworkOf(s.Root)}
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
	r.pass.ExportPackageFact(&rootSlotsFact{Slots: out})
}

// findSlotRoots makes the functions the package stores into slots that
// the roots of the packages below call request roots (after
// resolve.Stored.Scan): this package's functions and literals in run's
// root pass, another package's at the store, with its fact.
func (r *scanned) findSlotRoots(files []*ast.File) {
	r.slotRoots = &slotRoots{funcs: map[*types.Func]string{}, lits: map[*ast.FuncLit]string{}, ext: map[*types.Func]bool{}}
	if r.thirdParty || len(r.stored.All()) == 0 {
		return
	}
	called := map[string][]rootSlot{}
	sigs := map[string]map[string]bool{} // generic slots: the func types stored there, as seen here
	for _, pf := range r.below {
		switch f := pf.Fact.(type) {
		case *rootSlotsFact:
			for _, s := range f.Slots {
				called[s.Key] = append(called[s.Key], s)
			}
		case *join.ConvFact:
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
		return
	}
	info := r.pass.TypesInfo
	for _, st := range r.stored.All() {
		if sig := resolve.Sig(info.TypeOf(st.Value)); sig != "" && called[st.Slot] != nil {
			if sigs[st.Slot] == nil {
				sigs[st.Slot] = map[string]bool{}
			}
			sigs[st.Slot][sig] = true
		}
	}
	decls := map[*types.Func]*ast.FuncDecl{}
	for fd, fn := range funcDecls(info, files) {
		decls[fn] = fd
	}
	for _, st := range r.stored.All() {
		fw, ok := r.slotCalled(called[st.Slot], st, sigs[st.Slot])
		if !ok || r.stored.IsParam(st) {
			continue
		}
		ts, _ := r.handlers.Resolve(st.Value)
		for _, t := range ts {
			switch {
			case t.Lit != nil:
				if _, ok := r.slotRoots.lits[t.Lit]; !ok {
					r.slotRoots.lits[t.Lit] = fw
				}
			case t.Call || t.Func == nil:
			case t.Func.Pkg() == r.pass.Pkg:
				if _, ok := r.slotRoots.funcs[t.Func]; !ok {
					r.slotRoots.funcs[t.Func] = fw
				}
			case t.Func.Pkg() != nil && !knowledge.StdPath(t.Func.Pkg().Path()):
				in, ignores := r.pass.Pkg.Name(), []*directive.Ignore(nil)
				if fd := decls[st.In]; fd != nil {
					in, ignores = declName(fd, st.In), r.dirs.FuncIgnores(fd.Doc)
				}
				r.slotRoots.ext[t.Func.Origin()] = true
				r.cb.addExt(adaptedRef{fn: t.Func, pos: st.Value.Pos(), end: st.Value.End(), in: in, ignores: ignores,
					how: seen.HowStored, framework: fw})
			}
		}
	}
}

// slotCalled says whether a root calls the slot st stores into, with the
// framework of that root: for a generic type's field, a call of st's
// func type, or a call in generic code when the functions stored there
// are of one type, as dispatch would follow it.
func (r *pkgView) slotCalled(calls []rootSlot, st resolve.Store, sigs map[string]bool) (string, bool) {
	sig := resolve.Sig(r.pass.TypesInfo.TypeOf(st.Value))
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
