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
//
// In a package-level var declaration the tables may hold more (isTable):
// strings, conversions to a basic type (uint16(19970)), and constants of
// the package in arithmetic where the element's type is a basic one
// (jis0208<<14 | 0x0F<<7 in a [...]uint16), as generated tables do
// (x/text's encodings, transpiled C's initialisers). There an unqualified
// name can lose its only use without a type error: only a local variable
// must be used, and a package-level initialiser has none outside its
// function literals, which keep the number-only rule.
func trimData(f *ast.File) {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		trimIn(d, ok && g.Tok == token.VAR)
	}
}

// trimIn empties the tables under n, with isTable's wider rule when table
// is true: in a package-level var declaration, outside its function
// literals, whose locals must be used.
func trimIn(n ast.Node, table bool) {
	ast.Inspect(n, func(n ast.Node) bool {
		if fl, ok := n.(*ast.FuncLit); ok && table {
			trimIn(fl.Body, false)
			return false
		}
		cl, ok := n.(*ast.CompositeLit)
		if !ok || len(cl.Elts) < minData {
			return true
		}
		if !allData(cl.Elts) && (!table || !allTable(cl.Type, cl.Elts)) {
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

// allTable reports whether every element of a literal of type typ (nil
// when elided) is a table's: isTable, with the element's type basic when
// typ says so.
func allTable(typ ast.Expr, elts []ast.Expr) bool {
	basic := false
	switch t := typ.(type) {
	case *ast.ArrayType:
		basic = isBasic(t.Elt)
	case *ast.MapType:
		basic = isBasic(t.Value)
	}
	for _, e := range elts {
		if !isTable(e, basic) {
			return false
		}
	}
	return true
}

// isTable reports whether e is data a package-level table may hold: what
// isData accepts, a string, true or false, a conversion to a basic type,
// arithmetic, a key that is a name (a field, or a constant key: a
// function is never a key), and literals of them whose type is elided or
// an unnamed array, slice or map. A name of the package may stand in
// arithmetic only where the element's type is basic (a conversion's
// operand, or basic is true): elsewhere a constant of a named type could
// be converted to an interface with methods, which dispatch reads. A
// named literal type stays under isData's rule (numbers only) for the
// same reason. No element may mention another package, so no import
// loses its only use.
func isTable(e ast.Expr, basic bool) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return e.Name == "true" || e.Name == "false"
	case *ast.ParenExpr:
		return isTable(e.X, basic)
	case *ast.UnaryExpr:
		return (e.Op == token.SUB || e.Op == token.ADD || e.Op == token.XOR || e.Op == token.NOT) && isOperand(e.X, basic)
	case *ast.BinaryExpr:
		return isOperand(e.X, basic) && isOperand(e.Y, basic)
	case *ast.CallExpr:
		return isBasic(e.Fun) && len(e.Args) == 1 && e.Ellipsis == token.NoPos && isOperand(e.Args[0], true)
	case *ast.KeyValueExpr:
		_, name := e.Key.(*ast.Ident)
		return (name || isTable(e.Key, false)) && isTable(e.Value, basic)
	case *ast.CompositeLit:
		switch e.Type.(type) {
		case nil:
		case *ast.ArrayType, *ast.MapType:
			if !unnamed(e.Type) {
				return false
			}
		default:
			return isData(e)
		}
		return allTable(e.Type, e.Elts)
	}
	return false
}

// isOperand reports whether e may stand in arithmetic or a conversion: a
// table's element, or, where the result is basic, a name (a function has
// no arithmetic, so it is a constant or variable of the package).
func isOperand(e ast.Expr, basic bool) bool {
	if _, ok := e.(*ast.Ident); ok {
		return basic
	}
	return isTable(e, basic)
}

// unnamed reports whether t is an array, slice or map type built of
// unqualified names and literal lengths: it mentions no import.
func unnamed(t ast.Expr) bool {
	switch t := t.(type) {
	case *ast.Ident:
		return true
	case *ast.ArrayType:
		if t.Len != nil {
			if _, open := t.Len.(*ast.Ellipsis); !open && !isOperand(t.Len, true) {
				return false
			}
		}
		return unnamed(t.Elt)
	case *ast.MapType:
		return unnamed(t.Key) && unnamed(t.Value)
	}
	return false
}

// isBasic reports whether t names a predeclared basic type, which has no
// methods. (A package could declare its own uint16; generated tables do
// not, and the cost of that guess is a trimmed table, not a type error.)
func isBasic(t ast.Expr) bool {
	id, ok := t.(*ast.Ident)
	return ok && basicTypes[id.Name]
}

// basicTypes are the predeclared types a table's elements have.
var basicTypes = map[string]bool{
	"bool": true, "string": true, "byte": true, "rune": true, "uintptr": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true,
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
// previous element's. ok is false for a key that is not an integer
// written with literals (19968 - 19968 is one).
func length(elts []ast.Expr) (n int64, ok bool) {
	var i int64
	for _, e := range elts {
		if kv, isKV := e.(*ast.KeyValueExpr); isKV {
			k, exact := constant.Int64Val(constant.ToInt(index(kv.Key)))
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

// index is the value of an array key written with integer literals, or
// unknown.
func index(e ast.Expr) constant.Value {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.INT || e.Kind == token.CHAR {
			return constant.MakeFromLiteral(e.Value, e.Kind, 0)
		}
	case *ast.ParenExpr:
		return index(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.SUB || e.Op == token.ADD {
			return constant.UnaryOp(e.Op, index(e.X), 0)
		}
	case *ast.BinaryExpr:
		x, y := index(e.X), index(e.Y)
		switch e.Op {
		case token.ADD, token.SUB, token.MUL:
			return constant.BinaryOp(x, e.Op, y)
		case token.SHL:
			if s, ok := constant.Uint64Val(y); ok && s < 64 {
				return constant.Shift(x, e.Op, uint(s))
			}
		}
	}
	return constant.MakeUnknown()
}
