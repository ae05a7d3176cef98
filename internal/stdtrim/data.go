package stdtrim

import (
	"go/ast"
	"go/constant"
	"go/token"
	"strconv"
)

// minData is the fewest elements a literal needs before trimData empties
// it: the gain is in the tables of thousands (code pages, compression
// dictionaries, transpiled C's initialisers), and a short literal costs
// nothing to keep.
const minData = 16

// trimData empties the composite literals of f that hold only numbers: the
// code-page, Unicode and compression tables of dependencies, whose every
// element go/types records (an expression, a type and a constant value
// each) and go/packages keeps until the analysis ends.
//
// The analyzer never reads such elements: a number has no calls, is no
// function value a slot could hold, and converts to no interface with
// methods (dispatch's conversions). The literal itself stays, with its
// type, so whatever is judged by a literal's type still sees it. The trim
// keeps the program's types: a literal's type is written in it, or elided
// from an outer literal's, and an array of [...] gets its length written
// out. An element with a name (a constant, a field key, true) keeps its
// literal whole, so no import or declaration loses its only use.
func trimData(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok || len(cl.Elts) < minData || !allData(cl.Elts) {
			return true
		}
		if at, ok := cl.Type.(*ast.ArrayType); ok {
			if _, open := at.Len.(*ast.Ellipsis); open {
				n, ok := length(cl.Elts)
				if !ok {
					return true
				}
				at.Len = &ast.BasicLit{ValuePos: at.Len.Pos(), Kind: token.INT, Value: strconv.FormatInt(n, 10)}
			}
		}
		cl.Elts = nil
		return false
	})
}

// allData reports whether every element is a number, a keyed number, or a
// literal made of them whose type is elided or a name of the package (a
// qualified name could be an import's only use).
func allData(elts []ast.Expr) bool {
	for _, e := range elts {
		if !isData(e) {
			return false
		}
	}
	return true
}

func isData(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.INT || e.Kind == token.FLOAT || e.Kind == token.IMAG || e.Kind == token.CHAR
	case *ast.UnaryExpr:
		return (e.Op == token.SUB || e.Op == token.ADD) && isData(e.X)
	case *ast.KeyValueExpr:
		return isData(e.Key) && isData(e.Value)
	case *ast.CompositeLit:
		if e.Type != nil {
			if _, ok := e.Type.(*ast.Ident); !ok {
				return false
			}
		}
		return allData(e.Elts)
	}
	return false
}

// length is the length of the array literal [...]T{elts}: one past its
// largest index, an element's index being its key or one past the
// previous element's. ok is false for a key that is not an integer.
func length(elts []ast.Expr) (n int64, ok bool) {
	var i int64
	for _, e := range elts {
		if kv, isKV := e.(*ast.KeyValueExpr); isKV {
			lit, isLit := kv.Key.(*ast.BasicLit)
			if !isLit || (lit.Kind != token.INT && lit.Kind != token.CHAR) {
				return 0, false
			}
			k, exact := constant.Int64Val(constant.MakeFromLiteral(lit.Value, lit.Kind, 0))
			if !exact {
				return 0, false
			}
			i = k
		}
		i++
		n = max(n, i)
	}
	return n, true
}
