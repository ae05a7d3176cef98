package analyzer

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/syncio/syncio/analyzer/internal/casetest"
	"github.com/syncio/syncio/analyzer/seen"
)

// TestRegistrations covers the registration shapes of docs/frameworks.md
// ("Registration calls"): echo v5 handlers, a method returning a handler
// literal, a method value, a closure kept in a local (registered, and
// returned by an adapter), an http.HandlerFunc conversion, a handler
// returned from a local, a wrapped library handler, a chi sub-router and
// a gRPC service registration; each finding is inside its handler. It
// then reads what the packages saw: every root with how it was found, and
// the registrations that could not be resolved, with the reason.
func TestRegistrations(t *testing.T) {
	t.Parallel()
	got := seenPackages(t, cases.Run(t, Analyzer, "registrations", "grpcreg"))

	reg := got["registrations"]
	if reg == nil {
		t.Fatal("no result for package registrations")
	}
	var roots []string
	for _, r := range reg.Roots {
		roots = append(roots, r.Name+" "+r.Framework+" "+r.How+" "+filepath.Base(r.Pos))
	}
	sort.Strings(roots)
	want := []string{
		"func literal echo signature registrations.go:24:9",             // returned by Handler.list
		"func literal gorilla/mux registration registrations.go:114:9",  // withUser's closure
		"func literal gorilla/mux registration registrations.go:120:25", // the handler usersGet wraps
		"func literal gorilla/mux registration registrations.go:126:9",  // returned by loginHandler
		"func literal net/http signature registrations.go:105:30",       // handle's, kept in a local
		"func literal net/http signature registrations.go:49:7",         // wrap's, kept in a local
		"func literal net/http signature registrations.go:65:7",         // handlerOf's
		"func literal net/http signature registrations.go:79:11",        // local in Routes
		"registrations.(*server).report custom adapter registrations.go:57:18",
		"registrations.Handler.Show echo signature registrations.go:31:18",
		"registrations.convert net/http signature registrations.go:36:6",
		"registrations.indexPage gorilla/mux registration registrations.go:137:6", // a result of pages
		"registrations.staticPage gorilla/mux registration registrations.go:142:6",
	}
	if strings.Join(roots, "\n") != strings.Join(want, "\n") {
		t.Errorf("roots:\n%s\nwant:\n%s", strings.Join(roots, "\n"), strings.Join(want, "\n"))
	}
	if len(reg.Registrations) != 13 {
		t.Errorf("%d registrations, want 13: %+v", len(reg.Registrations), reg.Registrations)
	}
	var unresolved []string
	for _, r := range reg.Registrations {
		for _, u := range r.Unresolved {
			unresolved = append(unresolved, r.Call+" "+filepath.Base(r.Pos)+" "+u)
		}
		if r.Framework == "" {
			t.Errorf("%s at %s: no framework", r.Call, r.Pos)
		}
	}
	wantU := []string{
		"chi.Router.Get registrations.go:93:2 s.handler: field handler",
	}
	if strings.Join(unresolved, "\n") != strings.Join(wantU, "\n") {
		t.Errorf("unresolved:\n%s\nwant:\n%s", strings.Join(unresolved, "\n"), strings.Join(wantU, "\n"))
	}
	if reg.Blind() {
		t.Error("registrations is blind, but it has roots")
	}
	// A parameter of the registering function is followed where that
	// function is called (TestRegistrars), and the registration says so.
	if h := handlersAt(reg, "registrations.go:92:2"); h != "what the callers of registrations.Routes pass as hf" {
		t.Errorf("handlers of the registration of a parameter: %q", h)
	}

	// gRPC: the service methods of a server that embeds no
	// Unimplemented*Server are roots by registration alone.
	var grpc []string
	for _, r := range got["grpcreg"].Roots {
		grpc = append(grpc, r.Name+" "+r.Framework+" "+r.How)
	}
	sort.Strings(grpc)
	wantG := "grpcreg.(*server).Get grpc registration\ngrpcreg.(*server).Watch grpc registration"
	if strings.Join(grpc, "\n") != wantG {
		t.Errorf("grpcreg roots:\n%s\nwant:\n%s", strings.Join(grpc, "\n"), wantG)
	}
}

// TestStrictRoots: with StrictRoots (go vet's and golangci-lint's way to
// see it), a package that registers routes but has no request root is
// reported at its first registration; without it, nothing is reported
// and the result still says the package is blind.
func TestStrictRoots(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	cfg.StrictRoots = true
	cases.Run(t, New(cfg), "blindroutes")

	res := cases.Run(quiet{T: t}, Analyzer, "blindroutes")
	for _, r := range res {
		if len(r.Diagnostics) != 0 {
			t.Errorf("without StrictRoots: %d diagnostics", len(r.Diagnostics))
		}
		if p, _ := r.Result.(*seen.Package); p == nil || !p.Blind() {
			t.Errorf("result %+v: want a blind package", r.Result)
		}
	}
}

// seenPackages returns what each analysed package saw, by import path.
func seenPackages(t testing.TB, results []*casetest.Result) map[string]*seen.Package {
	t.Helper()
	got := map[string]*seen.Package{}
	for _, res := range results {
		p, ok := res.Result.(*seen.Package)
		if !ok || p == nil {
			t.Fatalf("%s: result %T, want *seen.Package", res.Pkg.Path(), res.Result)
		}
		got[p.Path] = p
	}
	return got
}

// handlersAt joins the handlers of the registration at pos (file:line:col).
func handlersAt(p *seen.Package, pos string) string {
	for _, r := range p.Registrations {
		if filepath.Base(r.Pos) == pos {
			return strings.Join(r.Handlers, ", ")
		}
	}
	return "(no registration at " + pos + ")"
}

// TestUnfollowedRoots: a root that reaches no operation but calls a func
// value kept in a field of an unnamed struct type (through a function) is named
// in what the package saw, with the call's position, and the roots line
// says what runs behind it is unseen; a root that reaches an operation,
// or calls only a local func value, is not.
func TestUnfollowedRoots(t *testing.T) {
	t.Parallel()
	p := seenPackages(t, cases.Run(t, Analyzer, "unfollowed"))["unfollowed"]
	if p == nil {
		t.Fatal("no result for package unfollowed")
	}
	got := map[string]string{}
	for _, r := range p.Roots {
		got[r.Name] = filepath.Base(r.Unfollowed)
	}
	want := map[string]string{"unfollowed.Serve": "unfollowed.go:19:44", "unfollowed.Health": ".", "unfollowed.Local": "."}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: unfollowed %q, want %q (roots %v)", name, got[name], w, got)
		}
	}
	line := seen.Merge([]*seen.Package{p}).Line(nil)
	if !strings.Contains(line, "1 of the roots reaches no operation but calls a func value kept in a field, map or package variable that syncio could not follow (first at ") ||
		!strings.Contains(line, "unfollowed.go:19)") {
		t.Errorf("roots line does not name the unfollowed call: %s", line)
	}
}
