package analyzer

import (
	"go/ast"
	"go/types"
	"strings"
)

// Whose lock is held (SIO003). A mutex locked through a method's own
// receiver (b.mu in a *Bucket method) is shared only if the receiver is:
// a per-request value that a handler makes, uses and drops has a lock no
// other request can wait on (pocketbase opens its S3 filesystem inside
// each backups handler; the blob bucket's read lock around each S3 call
// excludes nobody). Such a lock's description carries recvLock, and each
// caller on the way up decides from the receiver of its call whether the
// lock stays its receiver's (a call on s.bucket in a method of s), is
// made per call and so dropped (a call on a local made by a New*
// constructor here and used only as a receiver), or becomes someone
// else's (anything else: the mark goes, the lock is reported as before).

// recvLock prefixes a lock description (finding.lock, blocksFact.Lock,
// DynCall.Lock) when the mutex is reached, through field selections only,
// from the receiver of the function the path is seen from. '@' cannot
// occur in a Go expression, so the mark never clashes with the lock's
// name; lockName strips it for messages.
const recvLock = "@recv:"

// lockName is a lock description as a message shows it.
func lockName(desc string) string { return strings.TrimPrefix(desc, recvLock) }

// callOwner says how the receiver of a method call relates to the
// function making it (item.recvOwn).
type callOwner int8

const (
	ownOther callOwner = iota // shared or unknown: a receiver-owned lock is reported
	ownRecv                   // the caller's own receiver, or a field of it
	ownFresh                  // a local made here by a constructor, used only as a receiver
)

// throughCall is a callee's lock description seen from a caller whose
// call's receiver relates to it as own says: a receiver-owned lock stays
// marked, is dropped when the receiver is made per call, and loses its
// mark otherwise.
func throughCall(lock string, own callOwner) string {
	if !strings.HasPrefix(lock, recvLock) {
		return lock
	}
	switch own {
	case ownRecv:
		return lock
	case ownFresh:
		return ""
	}
	return lockName(lock)
}

// ownLocks applies throughCall to every path of f.
func ownLocks(f *finding, own callOwner) *finding {
	if f == nil || !strings.HasPrefix(f.lock, recvLock) && !anyOwnLock(f.more) {
		return f
	}
	g := *f
	g.lock = throughCall(f.lock, own)
	g.more = nil
	for _, m := range f.more {
		g.more = append(g.more, ownLocks(m, own))
	}
	return &g
}

func anyOwnLock(fs []*finding) bool {
	for _, f := range fs {
		if strings.HasPrefix(f.lock, recvLock) {
			return true
		}
	}
	return false
}

// owners classifies the receivers of method calls in one body (collect).
type owners struct {
	info   *types.Info
	recv   *types.Var
	body   *ast.BlockStmt
	locals map[types.Object]callOwner
}

func newOwners(info *types.Info, sig *types.Signature, body *ast.BlockStmt) *owners {
	o := &owners{info: info, body: body}
	if sig != nil {
		o.recv = sig.Recv()
	}
	return o
}

// call returns how the receiver of call relates to the body's function.
func (o *owners) call(call *ast.CallExpr) callOwner {
	if call == nil {
		return ownOther
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ownOther
	}
	if s := o.info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
		return ownOther
	}
	if o.rootedInRecv(sel.X) {
		return ownRecv
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return ownOther
	}
	v, ok := o.info.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pos() <= o.body.Lbrace || v.Pos() >= o.body.Rbrace {
		return ownOther // not a local of this very body
	}
	if o.locals == nil {
		o.locals = map[types.Object]callOwner{}
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
func (o *owners) rootedInRecv(e ast.Expr) bool {
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
// new*) given only basic values makes it ownFresh (the assumption: such a
// constructor makes a new value and what it points to for that value, as
// pocketbase's NewBackupsFilesystem and NewS3 do, and keeps no copy), a method call on the receiver or a field of it
// (iter := s.bucket.List()) ownRecv. Every other mention must be the
// operand of a selector (a method call or a field read): a local passed
// to a function, stored, returned, captured by address or ranged into may
// be shared, so it is ownOther.
func (o *owners) local(v *types.Var) callOwner {
	selected := map[*ast.Ident]bool{}
	assigned := map[*ast.Ident]bool{}
	own, seen := ownOther, false
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
				if k == ownOther || seen && k != own {
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
		return ownOther
	}
	return own
}

// made classifies the value a local is assigned (local).
func (o *owners) made(e ast.Expr) callOwner {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return ownOther
	}
	var name string
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		name = f.Sel.Name
		if s := o.info.Selections[f]; s != nil && s.Kind() == types.MethodVal && o.rootedInRecv(f.X) &&
			!strings.HasPrefix(name, "New") && !strings.HasPrefix(name, "new") {
			return ownRecv
		}
	default:
		return ownOther
	}
	if !strings.HasPrefix(name, "New") && !strings.HasPrefix(name, "new") {
		return ownOther
	}
	// A constructor given only basic values (names, sizes, flags) cannot
	// hand the new value anything of the caller's to share; one given a
	// pointer, an interface or a struct may (NewIterator(globalBucket)).
	for _, a := range call.Args {
		t := o.info.TypeOf(a)
		if t == nil {
			return ownOther
		}
		if _, basic := t.Underlying().(*types.Basic); !basic {
			return ownOther
		}
	}
	return ownFresh
}
