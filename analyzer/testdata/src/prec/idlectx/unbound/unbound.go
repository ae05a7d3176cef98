// Package unbound: callees whose only evidence of I/O is a call through
// an interface (a reduced gRPC client's Invoker, a query builder's Conn)
// that nothing in the program binds. The handler's package cannot tell
// (the binding would be made above it), so SIO002 is decided at the join;
// no package sees a binding, so the signature rule reports each call in
// the program's main package (cmd), where no binding can come later.
package unbound

import (
	"context"
	"net/http"

	"github.com/uptrace/sqlq"
	"prec/idlectx/valid"
)

type Handlers struct {
	cl *valid.Client
	q  *sqlq.Query
}

func (h *Handlers) Get(w http.ResponseWriter, r *http.Request) {
	_ = h.cl.Get(context.Background(), "x")     // reports: `^prec/idlectx/valid.\(\*Client\).Get is given context.Background\(\) instead of the request context.*\(SIO002\)$`
	_ = valid.Outer(context.Background(), h.cl) // reports: `^prec/idlectx/valid.Outer is given context.Background\(\) instead of the request context.*\(SIO002\)$`
	_ = h.q.Scan(context.Background())          // reports: `^sqlq.\(\*Query\).Scan is given context.Background\(\) instead of the request context.*\(SIO002\)$`
}
