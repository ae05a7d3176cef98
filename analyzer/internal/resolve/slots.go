package resolve

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Stored func values.
//
// A slot is a place a func value is kept in until a request calls it: a
// struct field (router.Route.Action), a package-level variable, or an
// element of a map, slice or array kept in one (the container counts as
// its elements). It is named by a key that means the same in every
// package: the import path, the owning type's name and the field's name
// (example.com/router.Route.Action; with its type parameters for a
// generic type, example.com/router.Route[T].Action), or the import path
// and the variable's name. Fields of anonymous structs have no key.

// maxSlotSources bounds the slots one called value is followed to.
const maxSlotSources = 4

// Slot returns the key of the slot that e reads or writes: x.F, x.F[k],
// V, pkg.V or V[k] where F is a field and V a package-level variable;
// "" for anything else.
func Slot(info *types.Info, e ast.Expr) string {
	switch x := ast.Unparen(e).(type) {
	case *ast.IndexExpr:
		if tv, ok := info.Types[x.X]; ok && tv.IsValue() {
			if _, isFunc := tv.Type.Underlying().(*types.Signature); !isFunc {
				return Slot(info, x.X)
			}
		}
	case *ast.SelectorExpr:
		if sel := info.Selections[x]; sel != nil {
			if sel.Kind() != types.FieldVal {
				return ""
			}
			return selectionKey(sel)
		}
		if v, ok := info.Uses[x.Sel].(*types.Var); ok {
			return varKey(v)
		}
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok {
			v, _ = info.Defs[x].(*types.Var)
		}
		if v != nil {
			return varKey(v)
		}
	}
	return ""
}

// varKey is the key of a package-level variable, "" for a local.
func varKey(v *types.Var) string {
	if v.IsField() || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return ""
	}
	return v.Pkg().Path() + "." + v.Name()
}

// selectionKey walks a field selection (through embedded fields) to the
// struct that declares the field.
func selectionKey(sel *types.Selection) string {
	t := sel.Recv()
	idx := sel.Index()
	for i, j := range idx {
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || j >= st.NumFields() {
			return ""
		}
		if i == len(idx)-1 {
			return FieldKey(t, st.Field(j).Name())
		}
		t = st.Field(j).Type()
	}
	return ""
}

// FieldKey is the key of field name of the named struct type t (or of a
// pointer to one), "" when t is not named.
func FieldKey(t types.Type, name string) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj() == nil || n.Obj().Pkg() == nil {
		return ""
	}
	n = n.Origin()
	// A type declared inside a function is not named uniquely by its
	// package and name: no slot.
	if n.Obj().Parent() != n.Obj().Pkg().Scope() {
		return ""
	}
	// A generic type's field is one slot for every instantiation, named
	// with its type parameters (router.Route[T].Action): the store in
	// the generic code (&Route[T]{Action: action}) and the call through
	// an instance's field (v.Action(e) for v a *Route[*Event]) meet
	// there. Which instantiation a call reads is told apart by the
	// stored functions' types (Sig), at the join.
	tp := ""
	if ps := n.TypeParams(); ps.Len() > 0 {
		for i := range ps.Len() {
			if i > 0 {
				tp += ","
			}
			tp += ps.At(i).Obj().Name()
		}
		tp = "[" + tp + "]"
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name() + tp + "." + name
}

// Generic reports whether key names a field of a generic type.
func Generic(key string) bool { return strings.Contains(key, "].") }

// Sig names the func type of t (or of its underlying type) by its
// parameters' and results' types, the same in every package, for telling
// the instantiations of a generic type's field apart: "" when t is no
// func type or mentions a type parameter, whose instantiation the
// expression does not tell.
func Sig(t types.Type) string {
	if t == nil {
		return ""
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || mentionsTypeParam(sig, 0) {
		return ""
	}
	tuple := func(tu *types.Tuple, variadic bool) string {
		s := ""
		for i := range tu.Len() {
			if i > 0 {
				s += ","
			}
			pt := tu.At(i).Type()
			if variadic && i == tu.Len()-1 {
				if sl, ok := pt.(*types.Slice); ok {
					s += "..." + types.TypeString(sl.Elem(), nil)
					continue
				}
			}
			s += types.TypeString(pt, nil)
		}
		return s
	}
	return "func(" + tuple(sig.Params(), sig.Variadic()) + ")(" + tuple(sig.Results(), false) + ")"
}

// mentionsTypeParam reports whether t refers to a type parameter.
func mentionsTypeParam(t types.Type, depth int) bool {
	if depth > 8 {
		return true // too deep to tell: as if it did
	}
	switch u := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Pointer:
		return mentionsTypeParam(u.Elem(), depth+1)
	case *types.Slice:
		return mentionsTypeParam(u.Elem(), depth+1)
	case *types.Array:
		return mentionsTypeParam(u.Elem(), depth+1)
	case *types.Chan:
		return mentionsTypeParam(u.Elem(), depth+1)
	case *types.Map:
		return mentionsTypeParam(u.Key(), depth+1) || mentionsTypeParam(u.Elem(), depth+1)
	case *types.Signature:
		for _, tu := range []*types.Tuple{u.Params(), u.Results()} {
			for i := range tu.Len() {
				if mentionsTypeParam(tu.At(i).Type(), depth+1) {
					return true
				}
			}
		}
	case *types.Named:
		args := u.TypeArgs()
		for i := range args.Len() {
			if mentionsTypeParam(args.At(i), depth+1) {
				return true
			}
		}
	case *types.Struct:
		for i := range u.NumFields() {
			if mentionsTypeParam(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	case *types.Interface:
		// An interface literal's methods could mention one; a named
		// interface is handled above.
		for i := range u.NumExplicitMethods() {
			if mentionsTypeParam(u.ExplicitMethod(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// holdsFuncs reports whether values of t are func values or containers of
// them (a slice, array or map of funcs, nested or not).
func holdsFuncs(t types.Type) bool {
	for range 4 {
		if t == nil {
			return false
		}
		switch u := t.Underlying().(type) {
		case *types.Signature:
			return true
		case *types.Slice:
			t = u.Elem()
		case *types.Array:
			t = u.Elem()
		case *types.Map:
			t = u.Elem()
		default:
			return false
		}
	}
	return false
}

// Slots finds the slots of one package's calls through func values and
// the func values it stores into slots.
type Slots struct {
	info *types.Info
	// values are what a local variable is assigned: an assignment's or a
	// declaration's value (v, ok := m[k] included), or the ranged-over
	// container of a range statement's value variable.
	values map[*types.Var][]ast.Expr
	// ranged are the value variables of range statements: each holds an
	// element of its container.
	ranged map[*types.Var]bool
}

// Call is one slot a called func value is read from.
type Call struct {
	Key string
	// One is set when the func value is a field of one struct value (a
	// parameter, a receiver, a field of another): only the func stored
	// into that value runs, and when the program stores into the field at
	// more than one place the join cannot tell which one did, so it
	// follows none. A func read from a container (a slice, a map, a range
	// over routes) or a package variable may be any stored there.
	One bool
}

// NewSlots indexes the values of the package's local variables.
func NewSlots(info *types.Info, files []*ast.File) *Slots {
	s := &Slots{info: info, values: map[*types.Var][]ast.Expr{}, ranged: map[*types.Var]bool{}}
	local := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok || id.Name == "_" {
			return nil
		}
		v, ok := info.Defs[id].(*types.Var)
		if !ok {
			v, _ = info.Uses[id].(*types.Var)
		}
		if v == nil || varKey(v) != "" || v.IsField() {
			return nil
		}
		return v
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, l := range n.Lhs {
						if v := local(l); v != nil {
							s.values[v] = append(s.values[v], n.Rhs[i])
						}
					}
				} else if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
					if ix, ok := ast.Unparen(n.Rhs[0]).(*ast.IndexExpr); ok {
						if v := local(n.Lhs[0]); v != nil {
							s.values[v] = append(s.values[v], ix) // v, ok := m[k]
						}
					}
				}
			case *ast.ValueSpec:
				if len(n.Names) == len(n.Values) {
					for i, id := range n.Names {
						if v := local(id); v != nil {
							s.values[v] = append(s.values[v], n.Values[i])
						}
					}
				}
			case *ast.TypeSwitchStmt:
				// switch v := x.(type): each clause's v holds x's value.
				as, ok := n.Assign.(*ast.AssignStmt)
				if !ok || len(as.Rhs) != 1 {
					break
				}
				ta, ok := ast.Unparen(as.Rhs[0]).(*ast.TypeAssertExpr)
				if !ok {
					break
				}
				for _, st := range n.Body.List {
					if cc, ok := st.(*ast.CaseClause); ok {
						if v, ok := info.Implicits[cc].(*types.Var); ok {
							s.values[v] = append(s.values[v], ta.X)
						}
					}
				}
			case *ast.RangeStmt:
				if n.Value != nil {
					if v := local(n.Value); v != nil {
						s.values[v] = append(s.values[v], n.X) // an element of X
						s.ranged[v] = true
					}
				}
			}
			return true
		})
	}
	return s
}

// KeptValue reports whether fun, called through a value, reads it from a
// place a request path cannot see into when nothing resolves it: a field
// (x.f()), an element (m[k](), fs[i]()) or a package variable. A
// parameter or a local is the caller's to resolve (CallsFact).
func KeptValue(info *types.Info, fun ast.Expr) bool {
	switch e := ast.Unparen(fun).(type) {
	case *ast.SelectorExpr:
		sel := info.Selections[e]
		return sel != nil && sel.Kind() == types.FieldVal
	case *ast.IndexExpr:
		return true
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	}
	return false
}

// Called returns the slots a call through fun reads its func value from:
// fun itself (x.F(…), hooks[k](…)), or a local variable assigned from
// slots (h := x.F; for _, h := range x.Hooks; fs = append(fs, h.Func)),
// at most maxSlotSources, sorted by key.
func (s *Slots) Called(fun ast.Expr) []Call {
	found := map[string]bool{}
	for _, o := range s.origins(fun) {
		k := Slot(s.info, o.e)
		if k == "" {
			continue
		}
		one := !o.elem && s.oneValue(o.e)
		if prev, seen := found[k]; seen {
			one = one && prev
		}
		found[k] = one
	}
	out := make([]Call, 0, len(found))
	for k, one := range found {
		out = append(out, Call{Key: k, One: one})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	if len(out) > maxSlotSources {
		out = out[:maxSlotSources]
	}
	return out
}

// oneValue reports whether the slot e is a field of one struct value
// rather than of an element of a container: x.F where x is a parameter,
// a receiver, a result or a field of one, but not rt.F for rt ranged over
// or read from a slice or map.
func (s *Slots) oneValue(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || s.info.Selections[sel] == nil {
		return false // a package variable: any of its stores may be current
	}
	return !s.fromContainer(sel.X, map[*types.Var]bool{}, 0)
}

func (s *Slots) fromContainer(e ast.Expr, seen map[*types.Var]bool, depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.IndexExpr:
		if tv, ok := s.info.Types[x.X]; ok && tv.IsValue() {
			return true
		}
	case *ast.StarExpr:
		return s.fromContainer(x.X, seen, depth+1)
	case *ast.SelectorExpr:
		if s.info.Selections[x] != nil {
			return s.fromContainer(x.X, seen, depth+1)
		}
	case *ast.Ident:
		v, _ := s.info.Uses[x].(*types.Var)
		if v == nil || seen[v] {
			return false
		}
		if s.ranged[v] {
			return true
		}
		seen[v] = true
		for _, val := range s.values[v] {
			if s.fromContainer(val, seen, depth+1) {
				return true
			}
		}
	}
	return false
}

// Params returns the parameters (by their index in params) that the func
// value e may be: the parameter itself, an element of it, or a local
// variable it was assigned or appended to (fs = append(fs, more...)).
func (s *Slots) Params(e ast.Expr, params map[*types.Var]int) []int {
	var out []int
	for _, o := range s.origins(e) {
		if id, ok := o.e.(*ast.Ident); ok {
			if v, ok := s.info.Uses[id].(*types.Var); ok {
				if i, ok := params[v]; ok {
					out = append(out, i)
				}
			}
		}
	}
	return out
}

// origin is an expression a func value may come from; elem is set when
// the value is an element of it (read by an index or a range).
type origin struct {
	e    ast.Expr
	elem bool
}

// origins returns the expressions the func value e may come from,
// following element reads, appends and local variables.
func (s *Slots) origins(e ast.Expr) []origin {
	var out []origin
	s.walk(e, false, &out, map[*types.Var]bool{}, 0)
	return out
}

func (s *Slots) walk(e ast.Expr, elem bool, out *[]origin, seen map[*types.Var]bool, depth int) {
	if depth > maxDepth || len(*out) >= 4*maxSlotSources {
		return
	}
	e = ast.Unparen(e)
	if t := s.info.TypeOf(e); t == nil || !holdsFuncs(t) {
		return
	}
	if Slot(s.info, e) != "" {
		*out = append(*out, origin{e, elem})
		return
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		s.walk(x.X, true, out, seen, depth+1)
		return
	case *ast.SliceExpr:
		s.walk(x.X, elem, out, seen, depth+1)
		return
	case *ast.CallExpr:
		if isAppend(s.info, x) {
			for _, a := range x.Args {
				s.walk(a, elem, out, seen, depth+1)
			}
			return
		}
	case *ast.Ident:
		v, _ := s.info.Uses[x].(*types.Var)
		if v != nil && len(s.values[v]) > 0 {
			if !seen[v] {
				seen[v] = true
				for _, val := range s.values[v] {
					s.walk(val, elem || s.ranged[v], out, seen, depth+1)
				}
			}
			return
		}
	}
	*out = append(*out, origin{e, elem})
}

// isAppend reports whether call is the builtin append.
func isAppend(info *types.Info, call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == "append"
}

// Store is one func value put into a slot.
type Store struct {
	Slot  string
	Value ast.Expr    // the func value stored
	In    *types.Func // the declared function whose body stores it, or nil
	Pos   token.Pos
}

// ParamSlot says that a function stores its parameter Index into Slot.
type ParamSlot struct {
	Index int
	Slot  string
}

// Stores returns the func values the package stores into slots: assigned
// (x.F = f, hooks[k] = f, V = f, x.F = append(x.F, f)), given as a field
// or an element of a composite literal (&Route{Action: f},
// []func(){f, g} assigned to a slot), declared (var Hook = f), or passed
// to a parameter that the callee stores (paramSlots, another package's
// facts or this package's fixpoint). Values are func-typed expressions;
// a container stored whole is followed into its composite literal.
func (s *Slots) Stores(files []*ast.File, paramSlots func(fn *types.Func) []ParamSlot) []Store {
	info := s.info
	var out []Store
	var in *types.Func
	var value func(slot string, e ast.Expr, pos token.Pos, depth int)
	value = func(slot string, e ast.Expr, pos token.Pos, depth int) {
		e = ast.Unparen(e)
		t := info.TypeOf(e)
		if slot == "" || t == nil || depth > 3 {
			return
		}
		if tv, ok := info.Types[e]; ok && tv.IsNil() {
			return
		}
		if _, isFunc := t.Underlying().(*types.Signature); isFunc {
			out = append(out, Store{Slot: slot, Value: e, In: in, Pos: pos})
			return
		}
		if !holdsFuncs(t) {
			return
		}
		switch x := e.(type) {
		case *ast.Ident:
			out = append(out, Store{Slot: slot, Value: e, In: in, Pos: pos}) // a parameter, or a local
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				value(slot, el, pos, depth+1)
			}
		case *ast.CallExpr:
			if isAppend(info, x) && len(x.Args) > 1 {
				for _, a := range x.Args[1:] {
					if x.Ellipsis.IsValid() && a == x.Args[len(x.Args)-1] {
						value(slot, a, pos, depth+1) // append(x.F, []func(){…}...)
						continue
					}
					if at := info.TypeOf(a); at == nil {
						continue
					} else if _, isFunc := at.Underlying().(*types.Signature); isFunc {
						out = append(out, Store{Slot: slot, Value: a, In: in, Pos: pos})
					}
				}
			}
		}
	}
	assign := func(lhs, rhs ast.Expr, pos token.Pos) {
		k := Slot(info, lhs)
		if k == "" || !holdsFuncs(info.TypeOf(lhs)) {
			return
		}
		value(k, rhs, pos, 0)
	}
	visit := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i := range n.Lhs {
					assign(n.Lhs[i], n.Rhs[i], n.Pos())
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i := range n.Names {
					assign(n.Names[i], n.Values[i], n.Pos())
				}
			}
		case *ast.CompositeLit:
			t := info.TypeOf(n)
			if t == nil {
				break
			}
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
			}
			st, ok := t.Underlying().(*types.Struct)
			if !ok {
				break
			}
			for i, el := range n.Elts {
				name, val := "", el
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						name, val = id.Name, kv.Value
					}
				} else if i < st.NumFields() {
					name = st.Field(i).Name()
				}
				if name == "" {
					continue
				}
				if f := fieldByName(st, name); f != nil && holdsFuncs(f.Type()) {
					value(FieldKey(t, name), val, el.Pos(), 0)
				}
			}
		case *ast.CallExpr:
			fn := typeutil.StaticCallee(info, n)
			if fn == nil || paramSlots == nil {
				break
			}
			sig, _ := fn.Type().(*types.Signature)
			for _, ps := range paramSlots(fn.Origin()) {
				for j, a := range n.Args {
					variadicRest := sig != nil && sig.Variadic() && ps.Index == sig.Params().Len()-1 && j >= ps.Index && !n.Ellipsis.IsValid()
					if j == ps.Index || variadicRest {
						value(ps.Slot, a, a.Pos(), 0)
					}
				}
			}
		}
		return true
	}
	for _, f := range files {
		for _, d := range f.Decls {
			in = nil
			if fd, ok := d.(*ast.FuncDecl); ok {
				in, _ = info.Defs[fd.Name].(*types.Func)
			}
			ast.Inspect(d, visit)
		}
	}
	return out
}

func fieldByName(st *types.Struct, name string) *types.Var {
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			return st.Field(i)
		}
	}
	return nil
}

// HandedAndRun returns the func literals of body that are handed to a
// method of a value whose method the body calls afterwards, where neither
// method is known statically (an interface's or a type parameter's): the
// value is given the function and then asked to run it, as a hook chain
// does (event.setNextFunc(func() error {…}); …; return event.Next()).
// Bodies of go statements are skipped.
func HandedAndRun(info *types.Info, body ast.Node) map[*ast.FuncLit]bool {
	type handed struct {
		end  token.Pos
		lits []*ast.FuncLit
	}
	by := map[types.Object][]handed{}
	calls := map[types.Object][]token.Pos{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.CallExpr:
			if typeutil.StaticCallee(info, n) != nil {
				return true
			}
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if s := info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
				return true
			}
			id, ok := ast.Unparen(sel.X).(*ast.Ident)
			if !ok {
				return true
			}
			obj := info.Uses[id]
			if obj == nil {
				return true
			}
			calls[obj] = append(calls[obj], n.Pos())
			var lits []*ast.FuncLit
			for _, a := range n.Args {
				if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
					lits = append(lits, lit)
				}
			}
			if len(lits) > 0 {
				by[obj] = append(by[obj], handed{n.End(), lits})
			}
		}
		return true
	})
	out := map[*ast.FuncLit]bool{}
	for obj, hs := range by {
		for _, h := range hs {
			for _, p := range calls[obj] {
				if p > h.end {
					for _, lit := range h.lits {
						out[lit] = true
					}
					break
				}
			}
		}
	}
	return out
}

// SlotName shortens a slot's key for a chain: router.Route.Action.
func SlotName(key string) string {
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		return key[i+1:]
	}
	return key
}

// SlotPkg returns the import path of a slot's key: example.com/router
// for example.com/router.Route.Action.
func SlotPkg(key string) string {
	i := strings.LastIndexByte(key, '/') + 1
	if j := strings.IndexByte(key[i:], '.'); j >= 0 {
		return key[:i+j]
	}
	return key
}
