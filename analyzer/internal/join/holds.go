package join

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/dispatch"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// What a field, variable or parameter of interface type holds.
//
// A container keeps two fields of one interface (cache.Driver): one set
// to a Redis store or an in-memory one by configuration, the other only
// ever to the in-memory one. A call through the second is dispatched to
// the types stored there, not to every type bound to the interface
// (dispatch.Walk). Holds records, for the program's own packages, where
// the values of such places come from, as edges (dispatch.Hold) that
// travel up in ConvFact: a concrete type, another place, or something the
// analysis cannot see ("?"). The join reads them back from the places a
// call's receiver reads (dispatch.DynCall.Holds).
//
// The places (dispatch's node keys):
//
//	F:  a struct field, by resolve.FieldKey: x.f = v, T{f: v}
//	V:  a package variable
//	P:  a parameter of a declared function, set by its static calls' arguments
//	N:  the parameter of any method of that name, set by a call through an
//	    interface or a type parameter (which concrete method runs is not
//	    known there, so every one of that name counts)
//	R:  a declared function's result, from its return statements
//	M:  an interface method's result: every converted type's method's R
//
// A local is not a place: it stands for what is assigned to it in its
// function. A value whose origin is not followed (a type assertion, a
// map or slice element, a channel receive, a call through a func value,
// a literal's parameter, a field or variable whose address is taken, a
// declared function used as a value, whose callers are then unseen) is
// "?", and so is a place nothing is seen stored into: the join then
// falls back to every binding and says so.
type Holds struct {
	info   *types.Info
	pkg    *types.Package
	edges  []dispatch.Hold
	seen   map[dispatch.Hold]bool
	params map[*types.Var]string     // a declared function's parameter → its P key
	locals map[*types.Var][]ast.Expr // what is assigned to a local
	opaque map[*types.Var]bool       // a local whose value is not followed
	tuple  map[*types.Var]string     // a local set from a result of a call: its R or M key
}

// NewHolds records the edges of a package's files.
func NewHolds(info *types.Info, pkg *types.Package, files []*ast.File) *Holds {
	h := &Holds{info: info, pkg: pkg, seen: map[dispatch.Hold]bool{}, params: map[*types.Var]string{},
		locals: map[*types.Var][]ast.Expr{}, opaque: map[*types.Var]bool{}, tuple: map[*types.Var]string{}}
	// The locals and parameters first: a store reads them wherever it is.
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					sig := fn.Type().(*types.Signature)
					for i := range sig.Params().Len() {
						h.params[sig.Params().At(i)] = paramKey(fn, i)
						if sig.Recv() != nil && held(sig.Params().At(i).Type()) {
							// Called through an interface or a type
							// parameter, by name.
							h.add(paramKey(fn, i), []string{methodKey(fn.Name(), i)})
						}
					}
				}
			}
		}
		h.scanLocals(f)
	}
	for _, f := range files {
		h.scanStores(f)
	}
	return h
}

// Edges returns the package's edges, in the order found (nil for a nil
// h: a dependency's package records none).
func (h *Holds) Edges() []dispatch.Hold {
	if h == nil {
		return nil
	}
	return h.edges
}

func (h *Holds) add(to string, from []string) {
	for _, f := range from {
		e := dispatch.Hold{To: to, From: f}
		if to == "" || h.seen[e] {
			continue
		}
		h.seen[e] = true
		h.edges = append(h.edges, e)
	}
}

func paramKey(fn *types.Func, i int) string {
	return "P:" + fn.Origin().FullName() + "#" + strconv.Itoa(i)
}

func resultKey(fn *types.Func, k int) string {
	return "R:" + fn.Origin().FullName() + "#" + strconv.Itoa(k)
}

// held reports whether a place of type t is one dispatch may restrict:
// a followed interface.
func held(t types.Type) bool {
	_, ok := dispatch.IfaceKey(t)
	return ok
}

func (h *Holds) local(v *types.Var) bool {
	return v != nil && !v.IsField() && v.Pkg() == h.pkg && v.Parent() != h.pkg.Scope() && h.params[v] == ""
}

// scanLocals records what each local is assigned, and which locals are
// not followed (ranged over, a literal's parameter, address taken).
func (h *Holds) scanLocals(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if v := h.localOf(l); v != nil {
						h.locals[v] = append(h.locals[v], n.Rhs[i])
					}
				}
				return true
			}
			for i, l := range n.Lhs {
				if v := h.localOf(l); v != nil {
					if k := h.tupleKey(n.Rhs[0], i); k != "" {
						h.tuple[v] = k
					} else {
						h.opaque[v] = true
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				v, _ := h.info.Defs[name].(*types.Var)
				if !h.local(v) {
					continue
				}
				switch {
				case len(n.Values) == len(n.Names):
					h.locals[v] = append(h.locals[v], n.Values[i])
				case len(n.Values) == 1:
					if k := h.tupleKey(n.Values[0], i); k != "" {
						h.tuple[v] = k
					} else {
						h.opaque[v] = true
					}
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if v := h.localOf(e); v != nil {
					h.opaque[v] = true
				}
			}
		case *ast.FuncLit:
			if sig, ok := h.info.TypeOf(n).(*types.Signature); ok {
				for i := range sig.Params().Len() {
					h.opaque[sig.Params().At(i)] = true
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := h.localOf(n.X); v != nil {
					h.opaque[v] = true
				}
			}
		}
		return true
	})
}

func (h *Holds) localOf(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := h.info.ObjectOf(id).(*types.Var)
	if !h.local(v) {
		return nil
	}
	return v
}

// tupleKey is the place result k of a multi-valued call comes from, or
// "" when it is not followed (a comma-ok form, a call through a value).
func (h *Holds) tupleKey(e ast.Expr, k int) string {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return ""
	}
	if tup, ok := h.info.TypeOf(call).(*types.Tuple); ok && k < tup.Len() {
		// A result of a concrete type is that type, whoever returns it
		// (return onedrive.New(…) for a func returning *Driver, error).
		if t := tup.At(k).Type(); !types.IsInterface(t) {
			return typeKey(t)
		}
	}
	if fn := typeutil.StaticCallee(h.info, call); fn != nil {
		return resultKey(fn, k)
	}
	if m := h.ifaceMethod(call); m != "" {
		return m + "#" + strconv.Itoa(k)
	}
	return ""
}

// ifaceMethod is "M:iface.Method" for a call through a followed
// interface's method, or "".
func (h *Holds) ifaceMethod(call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	s := h.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return ""
	}
	if _, ok := s.Recv().Underlying().(*types.Interface); !ok {
		return ""
	}
	key, ok := dispatch.IfaceKey(s.Recv())
	if !ok {
		return ""
	}
	return "M:" + key + "." + sel.Sel.Name
}

// fieldKey is the F key of the field a selector reads, or "".
func (h *Holds) fieldKey(sel *ast.SelectorExpr) string {
	s := h.info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return ""
	}
	t := s.Recv()
	idx := s.Index()
	for j, i := range idx {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return ""
		}
		if j == len(idx)-1 {
			if k := resolve.FieldKey(t, st.Field(i).Name()); k != "" {
				return "F:" + k
			}
			return ""
		}
		t = st.Field(i).Type()
	}
	return ""
}

// place is the key of a place an assignment stores into, or "".
func (h *Holds) place(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if k := h.fieldKey(e); k != "" {
			return k
		}
		return h.varKey(e.Sel)
	case *ast.Ident:
		if v, ok := h.info.ObjectOf(e).(*types.Var); ok && h.params[v] != "" {
			return h.params[v]
		}
		return h.varKey(e)
	}
	return ""
}

func (h *Holds) varKey(id *ast.Ident) string {
	v, ok := h.info.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return ""
	}
	return "V:" + v.Pkg().Path() + "." + v.Name()
}

// scanStores records the edges of one file.
func (h *Holds) scanStores(f *ast.File) {
	called := map[ast.Expr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			fun := ast.Unparen(call.Fun)
			switch x := fun.(type) {
			case *ast.IndexExpr:
				fun = x.X
			case *ast.IndexListExpr:
				fun = x.X
			}
			called[fun] = true
		}
		return true
	})
	var inspect func(n ast.Node) bool
	inspect = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if fn, ok := h.info.Defs[n.Name].(*types.Func); ok && n.Body != nil {
				h.returns(fn, n.Body)
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if held(h.info.TypeOf(l)) {
						h.add(h.place(l), h.Refs(n.Rhs[i]))
					}
				}
			} else {
				for i, l := range n.Lhs {
					if held(h.info.TypeOf(l)) {
						h.add(h.place(l), h.tupleRefs(n.Rhs[0], i))
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if key := h.varKey(name); key != "" && held(h.info.TypeOf(name)) {
					switch {
					case len(n.Values) == len(n.Names):
						h.add(key, h.Refs(n.Values[i]))
					case len(n.Values) == 1:
						h.add(key, h.tupleRefs(n.Values[0], i))
					}
				}
			}
		case *ast.CompositeLit:
			t := h.info.TypeOf(n)
			if t == nil {
				return true
			}
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
			}
			st, ok := t.Underlying().(*types.Struct)
			if !ok {
				return true
			}
			for i, e := range n.Elts {
				name := ""
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						name, e = id.Name, kv.Value
					}
				} else if i < st.NumFields() {
					name = st.Field(i).Name()
				}
				if name == "" || !held(fieldType(st, name)) {
					continue
				}
				if k := resolve.FieldKey(t, name); k != "" {
					h.add("F:"+k, h.Refs(e))
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && held(h.info.TypeOf(n.X)) {
				h.add(h.place(n.X), []string{dispatch.Unseen})
			}
		case *ast.CallExpr:
			h.call(n)
		case *ast.Ident:
			h.asValue(n, n, called)
		case *ast.SelectorExpr:
			// The selector names the function (pkg.F, x.M): its Sel is
			// not looked at alone.
			h.asValue(n.Sel, n, called)
			ast.Inspect(n.X, inspect)
			return false
		}
		return true
	}
	ast.Inspect(f, inspect)
}

func fieldType(st *types.Struct, name string) types.Type {
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			return st.Field(i).Type()
		}
	}
	return nil
}

// asValue records a declared function or method used as a value (not
// called where it is named): its parameters are set where it is called,
// which is not seen.
func (h *Holds) asValue(id *ast.Ident, e ast.Expr, called map[ast.Expr]bool) {
	fn, ok := h.info.Uses[id].(*types.Func)
	if !ok || called[e] {
		return
	}
	sig := fn.Type().(*types.Signature)
	iface := false
	if r := sig.Recv(); r != nil {
		_, iface = r.Type().Underlying().(*types.Interface)
	}
	for i := range sig.Params().Len() {
		if !held(sig.Params().At(i).Type()) {
			continue
		}
		if iface {
			// An interface's method value: every method of that name
			// may be called through it.
			h.add(methodKey(fn.Name(), i), []string{dispatch.Unseen})
		} else {
			h.add(paramKey(fn, i), []string{dispatch.Unseen})
		}
	}
}

func methodKey(name string, i int) string { return "N:" + name + "#" + strconv.Itoa(i) }

// call records the arguments of a call into its callee's parameters:
// a declared function's (P), or every method of that name's (N) for a
// call through an interface or a type parameter.
func (h *Holds) call(call *ast.CallExpr) {
	tv, ok := h.info.Types[call.Fun]
	if !ok || tv.IsType() || tv.Type == nil {
		return
	}
	sig, _ := tv.Type.Underlying().(*types.Signature)
	if sig == nil {
		return
	}
	var key func(i int) string
	if fn := typeutil.StaticCallee(h.info, call); fn != nil {
		key = func(i int) string { return paramKey(fn, i) }
	} else if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := h.info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			key = func(i int) string { return methodKey(sel.Sel.Name, i) }
		}
	}
	if key == nil {
		return
	}
	for i, a := range call.Args {
		if i >= sig.Params().Len() || (sig.Variadic() && i >= sig.Params().Len()-1) {
			break
		}
		if held(sig.Params().At(i).Type()) {
			h.add(key(i), h.Refs(a))
		}
	}
}

// returns records fn's results of a followed interface type from its
// return statements (not its literals').
func (h *Holds) returns(fn *types.Func, body *ast.BlockStmt) {
	results := fn.Type().(*types.Signature).Results()
	some := false
	for i := range results.Len() {
		some = some || held(results.At(i).Type())
	}
	if !some {
		return
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			switch {
			case len(n.Results) == 0:
				// A bare return: the named results' values.
				for k := range results.Len() {
					if held(results.At(k).Type()) {
						h.add(resultKey(fn, k), h.localRefs(results.At(k), map[*types.Var]bool{}))
					}
				}
			case len(n.Results) == results.Len():
				for k, e := range n.Results {
					if held(results.At(k).Type()) {
						h.add(resultKey(fn, k), h.Refs(e))
					}
				}
			case len(n.Results) == 1:
				for k := range results.Len() {
					if held(results.At(k).Type()) {
						h.add(resultKey(fn, k), h.tupleRefs(n.Results[0], k))
					}
				}
			}
		}
		return true
	})
}

// Convert records that t's methods are what an interface's methods
// return where t is converted to iface: each followed-interface result
// of iface's method M is what t's M returns. From an interface, the
// results of its methods of the same name.
func (h *Holds) Convert(t, iface types.Type) {
	if h == nil {
		return
	}
	key, ok := dispatch.IfaceKey(iface)
	if !ok {
		return
	}
	it := iface.Underlying().(*types.Interface)
	from, fromIface := "", false
	if _, ok := t.Underlying().(*types.Interface); ok {
		from, fromIface = dispatch.IfaceKey(t)
		if !fromIface {
			return
		}
	}
	ms := types.NewMethodSet(t)
	for i := range it.NumMethods() {
		m := it.Method(i)
		res := m.Type().(*types.Signature).Results()
		for k := range res.Len() {
			if !held(res.At(k).Type()) {
				continue
			}
			to := "M:" + key + "." + m.Name() + "#" + strconv.Itoa(k)
			if fromIface {
				h.add(to, []string{"M:" + from + "." + m.Name() + "#" + strconv.Itoa(k)})
				continue
			}
			sel := ms.Lookup(m.Pkg(), m.Name())
			if sel == nil {
				continue
			}
			if cm, ok := sel.Obj().(*types.Func); ok {
				h.add(to, []string{resultKey(cm, k)})
			}
		}
	}
}

// typeKey is the key of a concrete type: "T:" and its name as a
// binding's Conv.Type spells it; Unseen for a type parameter.
func typeKey(t types.Type) string {
	if _, ok := t.(*types.TypeParam); ok {
		return dispatch.Unseen
	}
	return "T:" + types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// tupleRefs is where result k of a multi-valued expression comes from.
func (h *Holds) tupleRefs(e ast.Expr, k int) []string {
	if key := h.tupleKey(e, k); key != "" {
		return []string{key}
	}
	return []string{dispatch.Unseen}
}

// Receiver returns, for an interface call on x, where x comes from (Refs),
// or nil when h is nil or nothing of it is seen: a receiver of unseen
// origin only can restrict nothing, and is not carried (facts hold every
// interface call on a path).
func (h *Holds) Receiver(x ast.Expr) []string {
	if h == nil {
		return nil
	}
	if hs := h.Refs(x); slices.ContainsFunc(hs, func(r string) bool { return r != dispatch.Unseen }) {
		return hs
	}
	return nil
}

// Refs returns where the value of e comes from: the concrete type it
// has ("T:" and its name, as a binding's Conv.Type), the places it is
// read from, dispatch.Nil, or dispatch.Unseen.
func (h *Holds) Refs(e ast.Expr) []string {
	return h.refs(e, map[*types.Var]bool{})
}

func (h *Holds) refs(e ast.Expr, visiting map[*types.Var]bool) []string {
	e = ast.Unparen(e)
	tv, ok := h.info.Types[e]
	if !ok || tv.Type == nil {
		return []string{dispatch.Unseen}
	}
	if tv.IsNil() {
		return []string{dispatch.Nil}
	}
	if !types.IsInterface(tv.Type) {
		return []string{typeKey(tv.Type)}
	}
	switch e := e.(type) {
	case *ast.Ident:
		v, ok := h.info.ObjectOf(e).(*types.Var)
		if !ok {
			return []string{dispatch.Unseen}
		}
		if k := h.params[v]; k != "" {
			return []string{k}
		}
		if k := h.varKey(e); k != "" {
			return []string{k}
		}
		if h.local(v) {
			return h.localRefs(v, visiting)
		}
	case *ast.SelectorExpr:
		if k := h.fieldKey(e); k != "" {
			return []string{k}
		}
		if k := h.varKey(e.Sel); k != "" {
			return []string{k}
		}
	case *ast.CallExpr:
		if tv, ok := h.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return h.refs(e.Args[0], visiting) // a conversion
		}
		if k := h.tupleKey(e, 0); k != "" {
			return []string{k}
		}
	}
	return []string{dispatch.Unseen}
}

// localRefs is what is assigned to local v in its function.
func (h *Holds) localRefs(v *types.Var, visiting map[*types.Var]bool) []string {
	if h.opaque[v] || visiting[v] {
		if visiting[v] {
			return nil
		}
		return []string{dispatch.Unseen}
	}
	if k := h.tuple[v]; k != "" {
		if len(h.locals[v]) == 0 {
			return []string{k}
		}
	}
	if len(h.locals[v]) == 0 && h.tuple[v] == "" {
		return []string{dispatch.Unseen}
	}
	visiting[v] = true
	defer delete(visiting, v)
	var out []string
	if k := h.tuple[v]; k != "" {
		out = append(out, k)
	}
	for _, e := range h.locals[v] {
		for _, r := range h.refs(e, visiting) {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	return out
}
