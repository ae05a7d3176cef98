// Package named recognises types and methods by import path and type name,
// so that the analyzer needs none of the libraries and frameworks it knows
// about as a dependency. It is the bottom of the analyzer's units: it
// imports nothing of the analyzer.
package named

import "go/types"

// Is reports whether t (after removing one pointer if ptr is set) is
// the named type path.name.
func Is(t types.Type, ptr bool, path, name string) bool {
	if t == nil {
		return false
	}
	if ptr {
		p, ok := types.Unalias(t).(*types.Pointer)
		if !ok {
			return false
		}
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == path && obj.Name() == name
}

// Recv returns fn's receiver, or nil for a function.
func Recv(fn *types.Func) *types.Var {
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return nil
	}
	return sig.Recv()
}

// EntryPoint reports whether fn is main.main or an init function: nothing
// calls them, so they export no fact.
func EntryPoint(fn *types.Func) bool {
	if Recv(fn) != nil {
		return false
	}
	return fn.Name() == "init" || (fn.Name() == "main" && fn.Pkg() != nil && fn.Pkg().Name() == "main")
}

// IsContext reports whether t is context.Context itself.
func IsContext(t types.Type) bool { return Is(t, false, "context", "Context") }

// IsError reports whether t is the predeclared error type.
func IsError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}
