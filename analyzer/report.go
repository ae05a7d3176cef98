package analyzer

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// reporter turns a root's findings into diagnostics: messages, related
// positions, chains and suggested fixes (fixes.go). The runner hands it
// what it needs and never the other way round, so the rules and call
// resolution do not depend on how a finding is worded.
type reporter struct {
	pass *analysis.Pass
	cfg  *Config
	// assigns are the assignments of single calls' results, recorded by
	// collect (classify.go): httpFix rewrites the whole statement.
	assigns map[*ast.CallExpr]*ast.AssignStmt
	src     map[string][]byte // file contents read for fixes, by name
}

func newReporter(pass *analysis.Pass, cfg *Config) *reporter {
	return &reporter{
		pass:    pass,
		cfg:     cfg,
		assigns: map[*ast.CallExpr]*ast.AssignStmt{},
		src:     map[string][]byte{},
	}
}
