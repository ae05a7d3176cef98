package knowledge

import (
	"fmt"
	"go/types"
	"strings"
	"sync"

	"github.com/syncio/syncio/analyzer/internal/named"
)

// PathDbx is pocketbase/dbx, recognised by path and type name.
const PathDbx = "github.com/pocketbase/dbx"

// dbxFinishers returns the methods that run a dbx query, by receiver type
// (each a pointer) and name: the finisher rows of calls.txt, with the
// evidence (dbx v1.12.0). Each takes the …Context branch of Query.execute
// or Query.Rows when the query was given a context, and the plain Exec or
// Query when it was not; a SelectQuery or ModelQuery builds its Query
// with its own context, and a *DB made by (*DB).WithContext passes its
// context to every query it builds.
var dbxFinishers = sync.OnceValue(func() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	prefix := PathDbx + ".(*"
	for _, r := range builtin() {
		if r.Kind != KindFinisher {
			continue
		}
		typ, name, ok := strings.Cut(strings.TrimPrefix(r.Key, prefix), ").")
		if !strings.HasPrefix(r.Key, prefix) || !ok {
			panic(fmt.Sprintf("syncio: %s:%d: %s: a finisher row of another package than %s or not of a pointer receiver", r.File, r.Line, r.Key, PathDbx))
		}
		if m[typ] == nil {
			m[typ] = map[string]bool{}
		}
		m[typ][name] = true
	}
	return m
})

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
	for typ, methods := range dbxFinishers() {
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
