package analyzer

import (
	"go/ast"
	"go/build"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"github.com/syncio/syncio/analyzer/internal/directive"
	"github.com/syncio/syncio/analyzer/internal/exits"
	"github.com/syncio/syncio/analyzer/internal/join"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/report"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// newRunner is one package's analysis before any stage has run.
func newRunner(pass *analysis.Pass, cfg *Config) *runner {
	v := &pkgView{pass: pass, cfg: runConfig{cfg}}
	r := &runner{
		scanned:      &scanned{view: v},
		view:         v,
		byFunc:       map[*types.Func]*paths.Summary{},
		litSummaries: map[*ast.FuncLit]*paths.Summary{},
	}
	r.view.thirdParty = isThirdParty(pass)
	r.view.rules = &rules.Pkg{Info: pass.TypesInfo, Path: pass.Pkg.Path(), Site: r.view.site, Enabled: cfg.Enabled,
		Files: pass.Files, ThirdParty: r.view.thirdParty, Clients: cfg.Clients, FileRows: cfg.Files, Waits: cfg.Waits}
	r.scanned.ctxs = r.view.newContexts()
	return r
}

// scan is the first stage: the facts of the packages below, the files
// analysed, their directives and the pre-passes (adapters, slots and
// stores, slot roots, context callbacks and use, attaches, the functions
// that end the process), whose facts must be exported before any body is
// turned into items. It returns the files analysed.
func (s *scanned) scan() []*ast.File {
	s.view.below = join.ReadBelow(s.view.pass)
	var files []*ast.File
	for _, f := range s.view.pass.Files {
		if tf := s.view.pass.Fset.File(f.Pos()); !s.view.cfg.Tests && tf != nil && strings.HasSuffix(tf.Name(), "_test.go") {
			continue // tests are rarely request paths; Config.Tests opts in
		}
		files = append(files, f)
	}
	s.view.dirs = directive.New(s.view.pass.Fset, files)
	s.view.rep = report.New(s.view.pass, s.view.reportOpts(), s.view.dirs, s.view.site)
	s.view.decideGin(files)
	s.view.rep.BadIgnores()
	s.slots = resolve.NewSlots(s.view.pass.TypesInfo, files)
	s.scanCallbacks(files)
	s.stored = resolve.NewStored(s.view.pass, s.slots)
	if !s.view.thirdParty {
		s.stored.Scan(files)
		s.holds = join.NewHolds(s.view.pass.TypesInfo, s.view.pass.Pkg, files)
	}
	s.findSlotRoots(files)
	s.scanContexts(files)
	s.view.exportAttaches(files)
	s.exits = exits.Find(s.view.pass, s.view.cfg.Exits, files)
	s.perRequest = resolve.PerRequestTypes(s.view.pass.Pkg, s.view.pass.TypesInfo, files)
	s.ctxOpts = dataflow.CtxOptions(s.view.pass.Pkg, s.view.pass.TypesInfo, files)
	return files
}

// inGOROOT reports whether the package is part of the Go distribution.
func inGOROOT(pass *analysis.Pass) bool {
	root := build.Default.GOROOT
	if root == "" {
		return false
	}
	prefix := filepath.Join(root, "src") + string(filepath.Separator)
	for _, f := range pass.Files {
		if tf := pass.Fset.File(f.Pos()); tf != nil && strings.HasPrefix(tf.Name(), prefix) {
			return true
		}
	}
	return false
}

// isThirdParty reports whether the package belongs to a dependency rather
// than to the code under analysis. Every driver (checker, go vet's
// unitchecker, golangci-lint) fills pass.Module from go list: the main and
// workspace modules have no version, a dependency has one whether it is
// read from the module cache or from vendor/ (modules.txt), and whatever
// GOMODCACHE or -mod say. A dependency replaced by a local directory is
// the user's own code in all but name, so it counts as first-party; go vet
// before Go 1.27 does not pass Replace, so there it counts as third-party.
// Without module information (GOPATH mode) the file paths decide.
func isThirdParty(pass *analysis.Pass) bool {
	if m := pass.Module; m != nil && m.Path != "" {
		if m.Main || (m.Replace != nil && m.Replace.Version == "") {
			return false
		}
		return m.Version != ""
	}
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.Pos())
		if tf == nil {
			continue
		}
		name := filepath.ToSlash(tf.Name())
		if strings.Contains(name, "/vendor/") {
			return true
		}
		if _, rest, ok := strings.Cut(name, "/pkg/mod/"); ok && strings.Contains(rest, "@") {
			return true
		}
	}
	return false
}

// reportOpts is what the reporter is told of the configuration and of the
// rules.
func (v *pkgView) reportOpts() report.Options {
	return report.Options{
		ReportIgnored:  v.cfg.ReportIgnored,
		Enabled:        v.cfg.Enabled,
		Known:          func(id string) bool { _, ok := RuleByID(id); return ok },
		FixURL:         v.cfg.FixURL,
		SuppressionURL: v.cfg.SuppressionURL,
		Short: func(id string) string {
			rule, _ := RuleByID(id)
			return rule.Short
		},
		Replacement: func(key string) (string, string) {
			rep := v.cfg.Blocking[key]
			return rep.Method, rep.ExtraArgs
		},
		Once: onceRules,
		Held: rules.Held,
	}
}
