package analyzer

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/syncio/syncio/analyzer/seen"
)

// TestExtraRoutes: the registrations that are no verb route (chi's Mount,
// NotFound and MethodNotAllowed on Router and Mux, v5 and before, gin's and hertz's
// NoRoute and NoMethod, echo's RouteNotFound, fiber's Use) and the
// routers' handler fields (gorilla's NotFoundHandler and
// MethodNotAllowedHandler, httprouter's NotFound, MethodNotAllowed and
// PanicHandler, echo's HTTPErrorHandler, fiber's Config.ErrorHandler, set
// by assignment, through an embedded router or in a composite literal)
// make the handlers given to them roots, here through the program's
// registrars or directly, with handlers of no handler shape, reported
// inside themselves. A
// sub-router given to Mount, a sub-app, a prefix or a []string given to
// Use is no handler and no unresolved one, and the roots line counts
// every call.
func TestExtraRoutes(t *testing.T) {
	t.Parallel()
	p := seenPackages(t, cases.Run(t, Analyzer, "extraroutes"))["extraroutes"]
	if p == nil {
		t.Fatal("no result for package extraroutes")
	}
	var byReg []string
	for _, r := range p.Roots {
		if r.How == seen.HowRegistration {
			byReg = append(byReg, r.Name+" "+r.Framework)
		}
	}
	sort.Strings(byReg)
	want := []string{
		"extraroutes.echo5ConfigError echo", // fields.go's
		"extraroutes.echo5Error echo",       // fields.go's
		"extraroutes.echoError echo",        // fields.go's
		"extraroutes.echoMissing echo",
		"extraroutes.fiber2InGroup fiber",
		"extraroutes.fiber2InRouter fiber",
		"extraroutes.fiber2Page fiber",
		"extraroutes.fiber3Error fiber", // fields.go's
		"extraroutes.fiber3InGroup fiber",
		"extraroutes.fiber3InRouter fiber",
		"extraroutes.fiber3Page fiber",
		"extraroutes.fiberError fiber", // fields.go's
		"extraroutes.ginMissing gin",
		"extraroutes.ginWrongMethod gin",
		"extraroutes.gorillaMissing gorilla/mux",     // fields.go's
		"extraroutes.gorillaWrongMethod gorilla/mux", // fields.go's
		"extraroutes.hertzMissing hertz",
		"extraroutes.hertzWrongMethod hertz",
		"extraroutes.legacyPage chi",
		"extraroutes.missingPage chi",
		"extraroutes.muxLegacy chi",
		"extraroutes.muxMissing chi",
		"extraroutes.muxWrongMethod chi",
		"extraroutes.onPanic httprouter",           // fields.go's
		"extraroutes.routerMissing httprouter",     // fields.go's
		"extraroutes.routerWrongMethod httprouter", // fields.go's
		"extraroutes.v1Legacy chi",                 // chiv1.go's
		"extraroutes.v1Missing chi",                // chiv1.go's
		"extraroutes.v1MuxLegacy chi",              // chiv1.go's
		"extraroutes.v1MuxMissing chi",             // chiv1.go's
		"extraroutes.v1MuxWrongMethod chi",         // chiv1.go's
		"extraroutes.v1WrongMethod chi",            // chiv1.go's
		"extraroutes.wrongMethod chi",
	}
	if strings.Join(byReg, "\n") != strings.Join(want, "\n") {
		t.Errorf("roots by registration:\n%s\nwant:\n%s", strings.Join(byReg, "\n"), strings.Join(want, "\n"))
	}

	regs := map[string]string{}
	for _, r := range p.Registrations {
		regs[filepath.Base(r.Pos)] = r.Call + ": " + strings.Join(r.Handlers, ", ") + strings.Join(r.Unresolved, ", ")
	}
	for pos, w := range map[string]string{
		"extraroutes.go:113:2": "chi.(*Mux).Mount: the routes registered on api()",
		"extraroutes.go:114:2": "chi.(*Mux).Mount: the routes registered on s.admin",
		"extraroutes.go:115:2": "chi.(*Mux).Mount: extraroutes.files.ServeHTTP",
		"extraroutes.go:175:2": "fiber.(*App).Use: func literal at extraroutes.go:175:16",
		"extraroutes.go:176:2": "fiber.(*App).Use: func literal at extraroutes.go:176:30",
		"extraroutes.go:182:2": "fiber.(*App).Use: the routes registered on fiber3.New()",
		"extraroutes.go:183:2": "fiber.(*App).Use: func literal at extraroutes.go:183:8",
		// The handler fields: an assignment, through an embedded router,
		// in a composite literal.
		"fields.go:20:2":   "mux.Router.NotFoundHandler: func literal at fields.go:20:39",
		"fields.go:31:2":   "mux.Router.MethodNotAllowedHandler: func literal at fields.go:31:47",
		"fields.go:107:26": "httprouter.Router.PanicHandler: extraroutes.onPanic",
		"fields.go:112:41": "echo.Config.HTTPErrorHandler: extraroutes.echo5ConfigError",
		"fields.go:115:31": "fiber.Config.ErrorHandler: extraroutes.fiberError",
		"fields.go:105:2":  "", // a nil stored is none
	} {
		if regs[pos] != w {
			t.Errorf("registration at %s: %q, want %q", pos, regs[pos], w)
		}
	}
	// 29 calls to the routers, 10 handler fields set, and 14 calls of
	// registrars (one per call, whatever the number of handlers it
	// registers).
	line := seen.Merge([]*seen.Package{p}).Line(nil)
	if !strings.Contains(line, "by registration 33") || !strings.Contains(line, "; 53 registration calls, every handler resolved") {
		t.Errorf("roots line: %s", line)
	}
}

// TestRouteGroup: go-pkgz/routegroup's registrations (remark42's router)
// are seen; a handler value built where syncio cannot follow it (a
// parameter here, go-pkgz/auth's Handlers() there) is named unresolved
// instead of passing unseen (issue 36).
func TestRouteGroup(t *testing.T) {
	t.Parallel()
	p := seenPackages(t, cases.Run(t, Analyzer, "routegroupdemo"))["routegroupdemo"]
	if p == nil {
		t.Fatal("no result for package routegroupdemo")
	}
	regs := map[string]string{}
	for _, r := range p.Registrations {
		regs[r.Call] = strings.Join(r.Handlers, ", ") + strings.Join(r.Unresolved, ", ")
	}
	for call, w := range map[string]string{
		"routegroup.(*Bundle).HandleFunc":      "routegroupdemo.(*api).comments",
		"routegroup.(*Bundle).NotFoundHandler": "routegroupdemo.notFound",
		"routegroup.(*Bundle).Handle":          "a.auth: field auth",
	} {
		if regs[call] != w {
			t.Errorf("registration %s: %q, want %q (all: %v)", call, regs[call], w, regs)
		}
	}
	line := seen.Merge([]*seen.Package{p}).Line(nil)
	if !strings.Contains(line, "3 registration calls, 1 with a handler syncio could not resolve") {
		t.Errorf("roots line: %s", line)
	}
}
