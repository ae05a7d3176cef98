package analyzer

import (
	"fmt"
	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"go/ast"
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// SIO004 client-per-request: a transport, SDK client or connection pool
// built on the request path. The constructors are the client rows of
// knowledge's call table (dataflow.ClientCtor); an http.Transport literal
// is the one found by its type.

const (
	clientDetail = "builds %s on every request: each one opens its own connections, pays TCP and TLS handshakes again and keeps no warm keep-alive connection"
	clientHint   = "build it once at start-up and share it; it is safe for concurrent use"
)

// clientCall is the item of a call to a client constructor.
func (r *pkgView) clientCall(fn *types.Func, key string, mk func(rule, name, detail, hint string) paths.Item) (paths.Item, bool) {
	what := dataflow.ClientCtor(r.cfg.Clients, fn, key)
	if what == "" {
		return paths.Item{}, false
	}
	return mk("SIO004", terminalName(fn), fmt.Sprintf(clientDetail, what), clientHint), true
}

// clientLiteral is the item of an http.Transport{} literal.
func (r *pkgView) clientLiteral(n *ast.CompositeLit) (paths.Item, bool) {
	if !named.Is(r.pass.TypesInfo.TypeOf(n), false, knowledge.PathHTTP, "Transport") {
		return paths.Item{}, false
	}
	return r.term("SIO004", n.Pos(), n.End(), "http.Transport{}",
		fmt.Sprintf(clientDetail, "an HTTP transport (connection pool)"), clientHint), true
}
