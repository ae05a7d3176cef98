package analyzer

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/syncio/syncio/analyzer/internal/casetest"
)

// reportsMarker introduces the expected diagnostics of a line in testdata
// whose findings another package reports (dispatch joins the handler's
// interface call with its binding where both are seen, so analysistest's
// per-package // want cannot express them): one backquoted regexp each.
var reportsMarker = regexp.MustCompile("// reports: (.*)$")

// crossReports runs the analyzer over the given testdata packages and
// checks every diagnostic, wherever it was reported, against the
// // reports: markers of the files under dir: each marker matched exactly
// once, nothing unmarked reported.
func crossReports(t *testing.T, dir string, pkgs ...string) {
	t.Helper()
	want := map[string][]*regexp.Regexp{} // "file:line"
	root := filepath.Join(analysistest.TestData(), "src", dir)
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				m := reportsMarker.FindStringSubmatch(c.Text)
				if m == nil {
					continue
				}
				key := filepath.Base(path) + ":" + strconv.Itoa(fset.Position(c.Pos()).Line)
				for _, q := range regexp.MustCompile("`([^`]*)`").FindAllStringSubmatch(m[1], -1) {
					want[key] = append(want[key], regexp.MustCompile(q[1]))
				}
			}
		}
		_ = ast.File{}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatalf("no // reports: markers under %s", root)
	}
	results := cases.Run(quiet{T: t}, Analyzer, pkgs...)
	var got []string
	for _, res := range results {
		if res.Err != nil {
			t.Fatalf("%s: %v", res.Pkg.Path(), res.Err)
		}
		for _, d := range res.Diagnostics {
			p := res.Fset.Position(d.Pos)
			key := filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
			matched := false
			for i, rx := range want[key] {
				if rx != nil && rx.MatchString(d.Message) {
					want[key][i] = nil
					matched = true
					break
				}
			}
			if !matched {
				got = append(got, key+" ("+res.Pkg.Path()+"): "+d.Message)
			}
		}
	}
	sort.Strings(got)
	for _, g := range got {
		t.Errorf("unexpected diagnostic (or reported twice): %s", g)
	}
	for key, rxs := range want {
		for _, rx := range rxs {
			if rx != nil {
				t.Errorf("%s: no diagnostic matching %s", key, rx)
			}
		}
	}
}

// TestInterfaceDispatch: handlers reach storage through interfaces bound in
// a wiring package they do not import (composite-literal fields, a method
// value's receiver, a factory's return, two interface hops), and two mains
// import the wiring package. Each finding is reported once, at the
// handler's call; a type never converted and a bound type that does not
// block are silent; an ignore at the handler's call travels with it.
func TestInterfaceDispatch(t *testing.T) {
	t.Parallel()
	crossReports(t, "wired", "wired/api", "wired/store", "wired/service", "wired/blob", "wired/app", "wired/cmd1", "wired/cmd2")
}

// TestCallbacks: func literals and function values passed to parameters
// their callee calls on the spot (in this package, in another, forwarded,
// gorm's Transaction) are on the request path; stored or started ones are
// not.
func TestCallbacks(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "callbacks", "callbacks/lib")
}

// TestOwnRouter: a service's own router type takes its own Handler type,
// folds the route's middleware over it in a loop and registers with echo
// a literal, made by a method of the func type, that calls the result
// (opengist's Router.GET). Its methods register their Handler parameter
// (a registrar, by fact), so each handler passed to them is a root: this
// package's inside itself, another package's at the argument.
func TestOwnRouter(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "ownrouter/web", "ownrouter/gists", "ownrouter/server")
}

// TestAdapters: functions of a service's own shape become request roots
// when passed to an adapter (local, imported, the appHandler func type,
// another package's function); the same shape passed nowhere does not.
func TestAdapters(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "adapters", "adapters/mw", "adapters/handlers", "adapters/routes", "adapters/router", "adapters/site")
}

// TestGRPCRegistration: a server passed to a generated Register*Server has
// its service methods (unary and streaming) as roots, with no
// Unimplemented*Server embedded; its other methods are not roots.
func TestGRPCRegistration(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "grpcreg")
}

// TestFanOutJoins: first-party WaitGroup and errgroup joins are silent when
// every goroutine they join stops with the request's context (or only
// computes), and flagged, naming the operation, when one ignores it.
func TestFanOutJoins(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "fanoutjoins")
}

// TestPoolJoins: the worker pools' waits are judged like errgroup's Wait,
// by the tasks their go rows were given in the same function; a call that
// submits one task and waits for it is reported whatever the task does.
func TestPoolJoins(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "poolwaits")
}

// TestPoolJoinsAntsV210: before v2.11, ants' ReleaseTimeout was Pool's
// own method, a key of its own; it needs a tree of its own, since the
// stand-in at the same import path in testdata/src is v2.12's.
func TestPoolJoinsAntsV210(t *testing.T) {
	t.Parallel()
	casetest.New(filepath.Join(analysistest.TestData(), "antsv210")).Run(t, Analyzer, "antsold")
}

// TestDispatchInLogNamedModule: a service package whose path holds "log"
// as part of a word (blog) still has its interfaces dispatched.
func TestDispatchInLogNamedModule(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "blog")
}

// TestDependencyInterfaceDispatch: a session library (vendored, so a
// dependency) calls its Store interface on every request. Bound by main to
// the service's own store that queries without the request's context, or
// by the program to a store module published for the library, the call is
// reported at the handler's call to the library, with the chain through
// the library and the interface; bound to the program's in-memory store,
// or only to the library's own store (converted inside the library), it is
// silent.
func TestDependencyInterfaceDispatch(t *testing.T) {
	t.Parallel()
	crossReports(t, "depiface", "depiface/app", "depiface/store", "depiface/cmd", "depiface/libstore", "depiface/memapp", "depiface/libonly")
}

// TestValidatorCallbacks: go-playground/validator's StructCtx hands its
// context only to the validation funcs registered with it (memory rows in
// calls.txt). A program that registers none taking a context is silent at
// Struct (memval/app); one that registers a func doing I/O with the
// context is reported there (memval/appio).
func TestValidatorCallbacks(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "memval/app", "memval/appio", "memval/check")
}

// TestInterfaceOnlyDroppedContext: issue 21 item 6's second class. A
// callee whose only evidence of I/O is a call through an interface that
// main binds (svc.Repo) gets a context the request cannot cancel; the
// root's package cannot see the binding, so SIO002 is decided at the
// join. cacheonly/app reaches only the library's in-memory cache
// (apache/answer's GetUserCacheInfo): silent. cacheonly/appsql reaches the
// program's own database-backed cache: reported, once, at the handler's
// call. cacheonly/appnobind is in a program that binds nothing to the
// interface: reported by the signature rule in its main package.
func TestInterfaceOnlyDroppedContext(t *testing.T) {
	t.Parallel()
	crossReports(t, "cacheonly", "cacheonly/app", "cacheonly/cmd", "cacheonly/appsql", "cacheonly/cmdsql", "cacheonly/appnobind", "cacheonly/cmdnobind")
}

// TestDispatchSkipsTestDoubles: issue 21 item 6, navidrome's
// tests.MockDataStore among the bindings of model.DataStore put its mutex
// among the locks held on request paths (4 SIO003). A conversion made in
// a test-support package (tests.(*MockStore).WithTx handing itself to a
// callback) and a type named as a double (store.FakeStore, bound in main)
// are no bindings; the server's store still is.
func TestDispatchSkipsTestDoubles(t *testing.T) {
	t.Parallel()
	crossReports(t, "doubles", "doubles/model", "doubles/store", "doubles/tests", "doubles/api", "doubles/cmd")
}

// TestPromotedInterfaceDispatch: a method promoted from an interface
// embedded in a struct (c.Call for a client embedding its caller, aria2's
// RPC client) is dispatched like the same call through a named field;
// bound only to a type that does no I/O, it is silent.
func TestPromotedInterfaceDispatch(t *testing.T) {
	t.Parallel()
	crossReports(t, "promoted", "promoted/rpc", "promoted/cmd")
}

// TestInterfaceCallbacks: a func literal or method value passed to an
// interface method runs on the request path when the implementation the
// program binds calls that parameter before it returns (navidrome's
// ds.WithTxImmediate(func…), run two literals deep through dbx's
// Transactional); silent when the implementation only keeps the function
// or starts it with go, or when the literal does nothing that blocks.
func TestInterfaceCallbacks(t *testing.T) {
	t.Parallel()
	crossReports(t, "ifacecb", "ifacecb/dbx", "ifacecb/model", "ifacecb/persistence", "ifacecb/api", "ifacecb/cmd")
}

// TestInterfaceOnlyDroppedContextFix: a deferred SIO002 reported by the
// join (cacheonly/cmdsql's pass, not the handler's) keeps the root's
// suggested fix, its edit placed on the handler's context.Background().
func TestInterfaceOnlyDroppedContextFix(t *testing.T) {
	t.Parallel()
	var fixed []string
	for _, res := range cases.Run(quiet{T: t}, Analyzer, "cacheonly/appsql", "cacheonly/cmdsql") {
		for _, d := range res.Diagnostics {
			if d.Category != "SIO002" {
				continue
			}
			if res.Pkg.Path() != "cacheonly/cmdsql" {
				t.Errorf("SIO002 reported in %s, want the join in cacheonly/cmdsql", res.Pkg.Path())
			}
			for _, fx := range d.SuggestedFixes {
				for _, e := range fx.TextEdits {
					p, end := res.Fset.Position(e.Pos), res.Fset.Position(e.End)
					src, err := os.ReadFile(p.Filename)
					if err != nil {
						t.Fatal(err)
					}
					fixed = append(fixed, string(src[p.Offset:end.Offset])+" → "+string(e.NewText))
				}
			}
		}
	}
	if want := []string{"context.Background() → r.Context()"}; !slices.Equal(fixed, want) {
		t.Errorf("fix edits %q, want %q", fixed, want)
	}
}

// TestPerRequestLock: a lock a method takes on its own receiver (a blob
// bucket's mutex around a remote call) is SIO003 where the receiver is
// shared (a package variable, a long-lived handler's field, a bucket
// handed to a constructor, a local passed on), and silent where the
// handler makes the value per request with a New* constructor given only
// basic values and uses it only as a receiver (dataflow.Owners).
func TestPerRequestLock(t *testing.T) {
	t.Parallel()
	crossReports(t, "perreq", "perreq/store", "perreq/api")
}
