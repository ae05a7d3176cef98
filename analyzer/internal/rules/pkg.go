package rules

import (
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
	// Clients and Files are the configuration's client and file rows.
	Clients map[string]string
	Files   map[string]bool
}

// Term is an item for an operation found in the body itself (not a call
// of a table), named name.
func (p *Pkg) Term(rule string, pos, end token.Pos, name, detail, hint string) paths.Item {
	return paths.Item{Pos: pos, End: end, Term: &paths.Finding{
		Rule: rule, Chain: []string{name}, Sites: []string{p.Site(pos)}, Poses: []token.Pos{pos},
		Detail: detail, Hint: hint, Kind: knowledge.OpKindOf(name),
	}}
}
