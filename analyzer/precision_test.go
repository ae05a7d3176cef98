package analyzer

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/syncio/syncio/analyzer/internal/paths"
)

// Precision classes of issue 10 (docs/precision.md, "Precision classes
// (issue 10)"). The dependency-module halves of classes 1 and 5 are in
// TestThirdParty.

// TestNewRequestWithContextLater: class 1, http.NewRequest given the
// request's context later by WithContext or Clone.
func TestNewRequestWithContextLater(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/newreq")
}

// TestDetachedDaemon: class 2, exec.Command started as a detached daemon.
func TestDetachedDaemon(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/daemon")
}

// TestGormContextValues: class 3, gorm values that carry a context
// (associations, the list-query idiom, index expressions).
func TestGormContextValues(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/gormctx")
}

// TestDoneEscapeOrigin: class 4, a ctx.Done() case is an escape only when
// the context derives from the request's or is of unknown origin.
func TestDoneEscapeOrigin(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/doneescape")
}

// TestDistinctTerminals: class 6, every distinct blocking operation a
// root's call reaches is in its rule's diagnostic, across packages, with
// the fact bounded to paths.MaxTerminals paths and paths.MaxOps operations per rule;
// each other operation is also attached as related information at its own
// position, the ones the message does not name included (issue 21 item 5).
func TestDistinctTerminals(t *testing.T) {
	t.Parallel()
	results := cases.Run(t, Analyzer, "prec/terminals", "prec/terminals/dep", "prec/terminals/store", "prec/terminals/wide")
	want := map[string][]string{
		"Load calls dep.Load": {"dep.go:20 also reaches database/sql.(*DB).Query, which blocks without the request context"},
		// Six operations: three named in the message, two counted there,
		// all five related; the two past paths.MaxTerminals by name only.
		"Many calls dep.Many → dep.Load → net/http.Get": {
			"store.go:14 also reaches net.Dial, which blocks without the request context",
			"dep.go:42 also reaches net.LookupHost, which blocks without the request context",
			"dep.go:20 also reaches database/sql.(*DB).Query, which blocks without the request context",
			"store.go:13 also reaches database/sql.(*DB).Query",
			"dep.go:43 also reaches database/sql.(*DB).Ping",
		},
	}
	found := map[string]bool{}
	for _, res := range results {
		for _, d := range res.Diagnostics {
			for prefix, w := range want {
				if !strings.HasPrefix(d.Message, prefix) || d.Category != "SIO001" {
					continue
				}
				found[prefix] = true
				var also []string
				for _, rel := range d.Related {
					if strings.HasPrefix(rel.Message, "also reaches ") {
						p := res.Fset.Position(rel.Pos)
						also = append(also, filepath.Base(p.Filename)+":"+strconv.Itoa(p.Line)+" "+rel.Message)
					}
				}
				if !slices.Equal(also, w) {
					t.Errorf("%s: related\n%q\nwant\n%q", prefix, also, w)
				}
			}
			// Wide: the fact names 16 of its 18 operations; the
			// related information has the 15 besides the first.
			if strings.HasPrefix(d.Message, "Wide calls") {
				found["Wide"] = true
				n := 0
				for _, rel := range d.Related {
					if strings.HasPrefix(rel.Message, "also reaches ") {
						n++
					}
				}
				if n != paths.MaxOps-1 {
					t.Errorf("Wide: %d related operations, want %d", n, paths.MaxOps-1)
				}
			}
		}
	}
	for _, prefix := range []string{"Load calls dep.Load", "Many calls dep.Many → dep.Load → net/http.Get", "Wide"} {
		if !found[prefix] {
			t.Errorf("no diagnostic %q", prefix)
		}
	}
}

// TestGormMigrator: issue 21's precision class, gorm's Migrator judged by
// the chain it was built from, not dispatched into gorm's migrator source.
func TestGormMigrator(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/gormmigrator")
}

// TestFileIOKeepsLock: issue 21's precision class, enabling SIO006 does
// not hide a SIO003 on the same path (the file I/O ranks above the lock
// held across a query, which was dropped from the helper's summary).
func TestFileIOKeepsLock(t *testing.T) {
	t.Parallel()
	cfg, err := Settings{Rules: map[string]bool{"sio006": true}}.Config()
	if err != nil {
		t.Fatal(err)
	}
	cases.Run(t, New(cfg), "prec/lockfile")
}

// TestIdleCallee: issue 21's precision class, SIO002 only when the callee
// given the dropped context can reach blocking I/O with it.
//
// A callee whose only evidence is a call through an interface that nothing
// binds (prec/idlectx/unbound) is decided at the join and reported by the
// signature rule in the program's main package.
func TestIdleCallee(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/idlectx")
	crossReports(t, "prec/idlectx/unbound", "prec/idlectx/unbound", "prec/idlectx/unbound/cmd")
}

// TestDbxChain: pocketbase/dbx's finishers are judged by the chain before
// them, not by dbx's source, which holds both branches of q.ctx == nil.
// navidrome gives every query .WithContext(r.ctx) (silent: 28 findings
// in scope were this false positive); a query with no WithContext on a
// stored builder is SIO001 at the finisher, one given
// context.Background() the SIO002 of its WithContext call, and one built
// elsewhere keeps dbx's fact (pocketbase's queries).
func TestDbxChain(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "dbxcase")
}

// TestOnceOnly: issue 21 item 6, navidrome's db.Db built by
// singleton.GetInstance read as a pool opened on every request (22
// SIO004) and the memoiser's wait as a request's (22 SIO005). A client
// built or a wait made in sync.Once.Do's function or a memoiser's is
// once per process; the same through a helper that calls its function
// every time is SIO004, and a ctx-less call in Once.Do stays SIO001.
func TestOnceOnly(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/once")
}

// TestFirstUse: a memoised getter's construction (guard or if-nil form,
// on a receiver's field or a package variable, under a lock or not) is
// no request path's; a value built per call, or a getter that keeps
// nothing, is (issue 35).
func TestFirstUse(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/firstuse")
}

// TestValueOnlyCallee: a callee that only reads values from its context
// is no reason for SIO002 (issue 35); one that keeps the context is.
func TestValueOnlyCallee(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/valueonly", "prec/valueonly/deps")
}

// TestOneDiagnosticThroughTheJoin: a root's call whose static path and a
// path the join finds through an interface bound in the same package
// reach I/O for one rule gets one diagnostic that names both (yarr's
// routes.go:231 had two, issue 37 item 7).
func TestOneDiagnosticThroughTheJoin(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/onediag")
}

// TestOneDiagnosticAcrossPackages: when a package above binds an interface
// that a package below could not see, and the package below already
// reported the root's call for the rule, the operations the binding adds
// are reported once at the interface call (with the request paths that
// reach it), not a second time at each root's call (gotify's oidc.go:376,
// bazel-remote's grpc_ac.go; issue 37 item 7). A root's call with nothing
// reported for the rule below keeps the finding at its call.
func TestOneDiagnosticAcrossPackages(t *testing.T) {
	t.Parallel()
	crossReports(t, "prec/crossdiag", "prec/crossdiag/api", "prec/crossdiag/app")
}

// TestStoredSet: a call through a field of interface type is dispatched
// to the types stored into that field, across packages (a getter behind
// an interface, a constructor's parameter kept in another package's
// field); a field some of whose stores are not seen is dispatched to
// every binding, and the chain says which were not seen stored there
// (issue 35).
func TestStoredSet(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/storedset", "prec/storedset/cache", "prec/storedset/dep", "prec/storedset/fs", "prec/storedset/setting")
}

// TestNilContextBranch: issue 35 class 3. A branch taken only when a
// context parameter, or a context field a functional option sets, is nil
// is not taken at a call that passes a context; a call that passes none,
// or a literal nil, still reaches it.
func TestNilContextBranch(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/nilctx", "prec/nilctx/req")
}

// TestPopPreloadOptIn: pop's preload is not followed from a query's
// finisher (an optin row), so a query that never asks for it is silent;
// one that calls EagerPreload is SIO001 at that call (issue 35).
func TestPopPreloadOptIn(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/popeager")
}

// TestFieldWaitInItsOwnAdder: a Wait on a field inside a goroutine the
// adding function starts is judged without following itself (sftpgo's
// dependencies overflowed the analyzer's stack).
func TestFieldWaitInItsOwnAdder(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/fieldwait")
}

// TestDerivedContext: a context a helper derives from its parameter
// stays the request's, or stays dropped, through the helper (issue 35).
func TestDerivedContext(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/derived")
}

// TestInMemoryValue: a method of a value only an in-memory constructor
// built (gocloud's localsecrets.NewKeeper) does no I/O, under a lock or
// given context.Background(); a keeper of unknown kind still does.
func TestInMemoryValue(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "prec/inmem")
}
