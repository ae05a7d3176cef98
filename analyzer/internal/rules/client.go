package rules

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

// ClientCall is the item of a call to a client constructor.
func (p *Pkg) ClientCall(fn *types.Func, key string, mk func(rule, name, detail, hint string) paths.Item) (paths.Item, bool) {
	what := dataflow.ClientCtor(p.Clients, fn, key)
	if what == "" {
		return paths.Item{}, false
	}
	return mk("SIO004", paths.TerminalName(fn), fmt.Sprintf(clientDetail, what), clientHint), true
}

// ClientLiteral is the item of an http.Transport{} literal.
func (p *Pkg) ClientLiteral(n *ast.CompositeLit) (paths.Item, bool) {
	if !named.Is(p.Info.TypeOf(n), false, knowledge.PathHTTP, "Transport") {
		return paths.Item{}, false
	}
	return p.Term("SIO004", n.Pos(), n.End(), "http.Transport{}",
		fmt.Sprintf(clientDetail, "an HTTP transport (connection pool)"), clientHint), true
}
