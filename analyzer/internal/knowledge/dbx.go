package knowledge

import (
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/named"
)

// PathDbx is pocketbase/dbx, recognised by path and type name.
const PathDbx = "github.com/pocketbase/dbx"

// dbxFinishers are the methods that run a dbx query, by receiver type,
// with the evidence (dbx v1.12.0): each takes the …Context branch of
// Query.execute (query.go:229-240) or Query.Rows (query.go:335-346) when
// the query was given a context, and the plain Exec or Query when it was
// not. A SelectQuery builds its Query with its own context (select.go:312
// `.WithContext(s.ctx)`); a ModelQuery does the same for its INSERT,
// UPDATE and DELETE (model_query.go:85, :159, :172). A *DB made by
// (*DB).WithContext passes its context to every query it builds
// (query.go:86, select.go:69, model_query.go:35).
var dbxFinishers = map[string]map[string]bool{
	"Query":       {"Execute": true, "One": true, "All": true, "Row": true, "Rows": true, "Column": true},
	"SelectQuery": {"One": true, "All": true, "Row": true, "Rows": true, "Column": true},
	"ModelQuery":  {"Insert": true, "Update": true, "Delete": true},
}

// DbxFinisher reports whether fn runs a dbx query (Execute, One, All, …
// of *dbx.Query, *dbx.SelectQuery, *dbx.ModelQuery): the query carries
// the request's context only if the chain it was built on called
// WithContext, which the finisher's own source cannot show (it tests
// q.ctx == nil at run time), so it is judged at the caller by its chain.
func DbxFinisher(fn *types.Func) bool {
	recv := named.Recv(fn)
	if recv == nil {
		return false
	}
	for typ, methods := range dbxFinishers {
		if named.Is(recv.Type(), true, PathDbx, typ) {
			return methods[fn.Name()]
		}
	}
	return false
}

// DbxChainMethod reports whether fn is a method of one of dbx's types
// (*DB, *Tx, Builder, *Query, *SelectQuery, *ModelQuery, …): a call of
// one on a query chain passes on the chain's context, or sets it when
// fn is WithContext.
func DbxChainMethod(fn *types.Func) bool {
	recv := named.Recv(fn)
	return recv != nil && IsDbxType(recv.Type())
}

// IsDbxType reports whether t (or what it points to) is a named type of
// dbx.
func IsDbxType(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == PathDbx
}
