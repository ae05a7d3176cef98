package resolve

import (
	"go/ast"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// The func values a package stores into slots.
//
// A function that stores one of its parameters into a slot (a router's
// Route, GET, Bind) does not know what is stored there: its callers'
// arguments are the stores. StoresFact tells the callers in other
// packages; the package's own callers see it by a fixpoint, since
// passing a parameter on to one that is stored stores it too.

// StoresFact lists the parameters a function stores into slots.
type StoresFact struct{ Params []ParamSlot }

func (*StoresFact) AFact() {}

func (f *StoresFact) params() []ParamSlot { return f.Params }

func (f *StoresFact) String() string {
	s := "stores("
	for i, p := range f.Params {
		if i > 0 {
			s += ","
		}
		s += strconv.Itoa(p.Index) + "→" + p.Slot
	}
	return s + ")"
}

// Stored are the package's stores into slots and the parameters its
// functions store, found by Scan and exported as facts, and other
// packages' stored parameters by their facts.
type Stored struct {
	pass   *analysis.Pass
	slots  *Slots
	params map[*types.Func][]ParamSlot
	stores []Store
}

// NewStored returns the stores of pass's package, whose slots are slots,
// none found yet.
func NewStored(pass *analysis.Pass, slots *Slots) *Stored {
	return &Stored{pass: pass, slots: slots, params: map[*types.Func][]ParamSlot{}}
}

// Scan finds the parameters the package's functions store into slots (a
// fixpoint over the stores), exports them as StoresFact, then finds every
// store, arguments to those parameters included.
func (s *Stored) Scan(files []*ast.File) {
	for changed := true; changed; {
		changed = false
		for _, st := range s.slots.Stores(files, s.Of) {
			i, ok := s.param(st)
			if !ok {
				continue
			}
			ps := ParamSlot{Index: i, Slot: st.Slot}
			dup := false
			for _, x := range s.params[st.In] {
				dup = dup || x == ps
			}
			if !dup {
				s.params[st.In] = append(s.params[st.In], ps)
				changed = true
			}
		}
	}
	for fn, ps := range s.params {
		s.pass.ExportObjectFact(fn, &StoresFact{Params: ps})
	}
	s.stores = s.slots.Stores(files, s.Of)
}

// Of returns the parameters fn stores into slots: this package's
// function's by Scan, another package's by its StoresFact.
func (s *Stored) Of(fn *types.Func) []ParamSlot {
	ps, _ := funcParams[ParamSlot, StoresFact](s.pass, s.params, fn)
	return ps
}

// All returns the package's stores, none before Scan.
func (s *Stored) All() []Store { return s.stores }

// IsParam reports whether st stores a parameter of the function it is
// in: no place of its own, since its callers' arguments are the stores.
func (s *Stored) IsParam(st Store) bool {
	_, ok := s.param(st)
	return ok
}

// param returns the index of the parameter st stores, if st stores one
// of the function it is in.
func (s *Stored) param(st Store) (int, bool) {
	id, ok := ast.Unparen(st.Value).(*ast.Ident)
	if !ok || st.In == nil {
		return 0, false
	}
	v, _ := s.pass.TypesInfo.Uses[id].(*types.Var)
	params := st.In.Type().(*types.Signature).Params()
	for i := range params.Len() {
		if params.At(i) == v {
			return i, true
		}
	}
	return 0, false
}
