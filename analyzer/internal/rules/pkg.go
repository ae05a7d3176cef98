package rules

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// Pkg is all a rule reads of the package being analysed: its types, its
// path, how a position is named in a chain, and the configuration's
// switches and tables. The analyzer builds one per package; a rule holds
// no analysis of its own, so what it decides depends on nothing else.
type Pkg struct {
	Info *types.Info
	Path string // the package's import path
	// Site names a position of this package in a chain.
	Site func(token.Pos) string
	// Enabled says whether the configuration turns a rule on.
	Enabled func(rule string) bool
	// Files are the package's files, for what a rule reads across its
	// bodies (the semaphores of wait.go).
	Files []*ast.File
	// ThirdParty: the package is a dependency module's, whose channels
	// are its own synchronisation.
	ThirdParty bool
	// Clients, FileRows and Waits are the configuration's client, file
	// and wait rows.
	Clients  map[string]string
	FileRows map[string]bool
	Waits    map[string]string

	// semChans are the channels the package uses as semaphores (see
	// semaphoreChan); nil until first asked.
	semChans map[types.Object]bool
	// dl is what the package stores for SIO008 (deadline.go); nil until
	// first asked.
	dl *deadlineIndex
	// joining are the WaitGroup fields whose joined work is being
	// computed (fieldJoins): a Wait on the field inside a goroutine that
	// the adding function starts leads back to the same field.
	joining map[*types.Var]bool
}

// Term is an item for an operation found in the body itself (not a call
// of a table), named name.
func (p *Pkg) Term(rule string, pos, end token.Pos, name, detail, hint string) paths.Item {
	return paths.Item{Pos: pos, End: end, Term: &paths.Finding{
		Rule: rule, Chain: []string{name}, Sites: []string{p.Site(pos)}, Poses: []token.Pos{pos},
		Detail: detail, Hint: hint, Kind: knowledge.OpKindOf(name),
	}}
}
