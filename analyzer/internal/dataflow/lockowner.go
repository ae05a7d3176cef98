package dataflow

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/paths"
)

// The receivers of method calls, for the lock marks of the path model
// (paths' locks.go): whose lock a callee's path holds.

// Owners classifies the receivers of method calls in one body.
type Owners struct {
	info   *types.Info
	recv   *types.Var
	body   *ast.BlockStmt
	locals map[types.Object]paths.Owner
}

func NewOwners(info *types.Info, sig *types.Signature, body *ast.BlockStmt) *Owners {
	o := &Owners{info: info, body: body}
	if sig != nil {
		o.recv = sig.Recv()
	}
	return o
}

// Call returns how the receiver of call relates to the body's function.
func (o *Owners) Call(call *ast.CallExpr) paths.Owner {
	if call == nil {
		return paths.OwnOther
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return paths.OwnOther
	}
	if s := o.info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
		return paths.OwnOther
	}
	if o.rootedInRecv(sel.X) {
		return paths.OwnRecv
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return paths.OwnOther
	}
	v, ok := o.info.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pos() <= o.body.Lbrace || v.Pos() >= o.body.Rbrace {
		return paths.OwnOther // not a local of this very body
	}
	if o.locals == nil {
		o.locals = map[types.Object]paths.Owner{}
	}
	own, ok := o.locals[v]
	if !ok {
		own = o.local(v)
		o.locals[v] = own
	}
	return own
}

// rootedInRecv reports whether e is the receiver or reached from it
// through field selections only.
func (o *Owners) rootedInRecv(e ast.Expr) bool {
	if o.recv == nil {
		return false
	}
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if s := o.info.Selections[x]; s == nil || s.Kind() != types.FieldVal {
				return false
			}
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.Ident:
			return o.info.Uses[x] == o.recv
		default:
			return false
		}
	}
}

// local classifies a local variable by where its values come from. Every
// assignment must be a single call: a constructor by Go's naming (New*,
// new*) given only basic values makes it paths.OwnFresh (the assumption: such a
// constructor makes a new value and what it points to for that value, as
// pocketbase's NewBackupsFilesystem and NewS3 do, and keeps no copy), a method call on the receiver or a field of it
// (iter := s.bucket.List()) paths.OwnRecv. Every other mention must be the
// operand of a selector (a method call or a field read): a local passed
// to a function, stored, returned, captured by address or ranged into may
// be shared, so it is paths.OwnOther.
func (o *Owners) local(v *types.Var) paths.Owner {
	selected := map[*ast.Ident]bool{}
	assigned := map[*ast.Ident]bool{}
	own, seen := paths.OwnOther, false
	ok := true
	ast.Inspect(o.body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, isID := ast.Unparen(n.X).(*ast.Ident); isID {
				selected[id] = true
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				id, isID := l.(*ast.Ident)
				if !isID || o.info.ObjectOf(id) != v {
					continue
				}
				assigned[id] = true
				if len(n.Rhs) != 1 {
					ok = false
					return false
				}
				k := o.made(n.Rhs[0])
				if k == paths.OwnOther || seen && k != own {
					ok = false
					return false
				}
				own, seen = k, true
			}
		case *ast.Ident:
			if o.info.ObjectOf(n) == v && !selected[n] && !assigned[n] {
				ok = false
				return false
			}
		}
		return true
	})
	if !ok || !seen {
		return paths.OwnOther
	}
	return own
}

// made classifies the value a local is assigned (local).
func (o *Owners) made(e ast.Expr) paths.Owner {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return paths.OwnOther
	}
	var name string
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		name = f.Sel.Name
		if s := o.info.Selections[f]; s != nil && s.Kind() == types.MethodVal && o.rootedInRecv(f.X) &&
			!strings.HasPrefix(name, "New") && !strings.HasPrefix(name, "new") {
			return paths.OwnRecv
		}
	default:
		return paths.OwnOther
	}
	if !strings.HasPrefix(name, "New") && !strings.HasPrefix(name, "new") {
		return paths.OwnOther
	}
	// A constructor given only basic values (names, sizes, flags) cannot
	// hand the new value anything of the caller's to share; one given a
	// pointer, an interface or a struct may (NewIterator(globalBucket)).
	for _, a := range call.Args {
		t := o.info.TypeOf(a)
		if t == nil {
			return paths.OwnOther
		}
		if _, basic := t.Underlying().(*types.Basic); !basic {
			return paths.OwnOther
		}
	}
	return paths.OwnFresh
}
