package rules

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/regions"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// SIO003 lock-across-io and SIO007 tx-across-io: an operation reached
// while a mutex is held, or a remote call while a transaction or pooled
// connection is open. The regions themselves are internal/regions'; the
// items carry the lock and transaction held at them (the analyzer's
// collect), and a path's rules are decided here, at the item and again
// when dispatch brings a path back to the handler's call
// (join.ApplyPending).

// Lockable are the rules whose operation blocks, so holding a lock across
// it is SIO003; "" is I/O that is no finding by itself.
var Lockable = map[string]bool{"": true, "SIO001": true, "SIO002": true, "SIO005": true}

// Apply drops the rules of f that are off or suppressed (a Lockable
// operation still counts as I/O under a lock), and adds the lock and the
// transaction held where f is reached; dispatch (join.ApplyPending)
// applies the same to what it carried from the handler's call.
func (p *Pkg) Apply(f *paths.Finding, lock, tx string, suppressed func(rule string) bool) *paths.Finding {
	g := *f
	if g.Rule != "" && (!p.Enabled(g.Rule) || suppressed(g.Rule)) {
		if !Lockable[g.Rule] {
			return nil
		}
		g.Rule = ""
	}
	if lock != "" && g.Lock == "" && Lockable[f.Rule] {
		g.Lock = lock
	}
	if g.Lock != "" && (!p.Enabled("SIO003") || suppressed("SIO003")) {
		g.Lock = ""
	}
	if tx != "" && g.Tx == "" && remote(f) {
		g.Tx = tx
	}
	if g.Tx != "" && (!p.Enabled("SIO007") || suppressed("SIO007")) {
		g.Tx = ""
	}
	return &g
}

// dbPackages are the package names and import paths (as chains name
// them: SIO001 table keys by path, other callees by package name) whose calls are
// database work, not a remote call: the transaction's own queries, or
// another query on the same pool.
var dbPackages = []string{
	"database/sql.", "gorm.", "sqlx.", "pgx.", "pgxpool.", "pgconn.",
	"gorm.io/", "github.com/jinzhu/gorm.", "github.com/jmoiron/sqlx.", "github.com/jackc/",
}

// remote reports whether a path ends at a remote call or a wait: anything
// that blocks (Lockable) but is no database call.
func remote(f *paths.Finding) bool {
	if !Lockable[f.Rule] || len(f.Chain) == 0 {
		return false
	}
	last := f.Chain[len(f.Chain)-1]
	for _, p := range dbPackages {
		if strings.HasPrefix(last, p) {
			return false
		}
	}
	return true
}

// txHint is SIO007's fix.
const txHint = "the transaction holds a pooled database connection (and its row locks) for the whole remote call, " +
	"so under load the pool drains and every request waits for a connection; make the call before Begin or after Commit, " +
	"or write an outbox row in the transaction and let a worker make the call"

// Held is how the SIO003 or SIO007 diagnostic words f, a path reached
// while its lock is held (f.Lock) or its transaction open (f.Tx): the
// clause that follows what f does, "" when f holds neither for rule, and
// the rule's hint. The reporter groups the paths; the wording is the
// rule's.
func Held(rule string, f *paths.Finding) (clause, hint string) {
	switch {
	case rule == "SIO007" && f.Tx != "":
		return " while transaction " + f.Tx + " is open", txHint
	case rule == "SIO003" && f.Lock != "":
		hint = "every request that needs the lock queues behind this I/O, so requests are served one at a time; " +
			"release the lock before the call (copy what you need under it), or use a per-key lock or singleflight"
		if f.Kind == knowledge.OpWait {
			// A channel operation or a wait on other goroutines: nothing
			// is loaded, so singleflight is no answer.
			hint = "every request that needs the lock queues behind this wait, for as long as the other side takes; " +
				"release the lock before waiting (copy what you need under it), and wait in a select with ctx.Done()"
		}
		if strings.Contains(f.Lock, regions.ReadLocked) {
			hint = "readers still run together, but a writer waiting for the lock blocks every new reader behind this I/O; " +
				"release the lock before the call (copy what you need under it)"
		}
		return " while " + paths.LockName(f.Lock) + " is held", hint
	}
	return "", ""
}

// SIO007 beyond the regions: gRPC client calls under an open transaction.

// GRPCUnderTx makes the calls through a generated gRPC client interface
// (a method whose first parameter is a context.Context, declared in a
// package that imports google.golang.org/grpc) made while a transaction is
// open remote I/O: interface dispatch does not carry the transaction, and
// the generated client's concrete type is rarely bound where the analysis
// can see it.
func (p *Pkg) GRPCUnderTx(body *ast.BlockStmt, txs []regions.Tx, items []paths.Item, invoked map[*ast.FuncLit]bool) []paths.Item {
	info := p.Info
	at := map[*ast.CallExpr]int{}
	for i, it := range items {
		if it.Call != nil {
			at[it.Call] = i
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.FuncLit:
			return invoked[n] // as collect: only literals run on the spot
		case *ast.CallExpr:
			im := resolve.InterfaceMethod(info, n)
			if im == nil || !importsGRPC(im.Pkg()) {
				return true
			}
			sig, _ := im.Type().(*types.Signature)
			if sig == nil || sig.Params().Len() == 0 || !named.IsContext(sig.Params().At(0).Type()) {
				return true
			}
			i, ok := at[n]
			if ok && items[i].Term != nil {
				return true
			}
			it := paths.Item{Pos: n.Pos(), End: n.End(), Call: n}
			if ok {
				it = items[i]
			}
			it.Tx = regions.OpenTxAt(info, txs, it.Pos, it.Call)
			if it.Tx == "" {
				return true
			}
			it.Term = &paths.Finding{Chain: []string{paths.DisplayName(im)}, Sites: []string{p.Site(n.Pos())}, Poses: []token.Pos{n.Pos()}}
			if ok {
				items[i] = it
			} else {
				items = append(items, it)
			}
		}
		return true
	})
	return items
}

// importsGRPC reports whether pkg imports google.golang.org/grpc: generated
// client code does.
func importsGRPC(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == "google.golang.org/grpc" {
			return true
		}
	}
	return false
}
