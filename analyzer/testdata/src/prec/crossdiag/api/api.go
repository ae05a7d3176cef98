// Package api holds handlers whose shared helper reaches I/O on a static
// path and, through an interface bound only in the wiring package above
// (which this package does not import), on paths it cannot see.
package api

import (
	"context"
	"net"
	"net/http"
)

type Notifier interface{ Notify(user string) }

type API struct{ N Notifier }

func (a *API) save(user string) {
	resp, err := http.Get("http://example.com/hook/" + user)
	if err == nil {
		resp.Body.Close()
	}
	a.notify(user)
}

func (a *API) notify(user string) {
	a.N.Notify(user) // reports: `^api.\(\*API\).notify calls a.N.Notify \(api.Notifier, bound to \*app.dbNotifier in app.Routes\) → app.\(\*dbNotifier\).Notify → database/sql.\(\*DB\).Exec, which .*; on 2 request paths: \(\*API\).Create \(api.go:33:2\), \(\*API\).Update \(api.go:37:2\) \(SIO001\)$` `^api.\(\*API\).notify calls a.N.Notify .* → database/sql.\(\*DB\).ExecContext, which is given context.Background\(\).*; on the request path of \(\*API\).Audit \(api.go:50:2\) \(SIO002\)$`
}

// Create and Update reach http.Get here, reported in this package, and the
// stored notifier's query, which only app sees: that one is reported once,
// at the interface call, with the request paths that reach it. Nothing
// below reported their calls for SIO002, so the notifier's is here.
func (a *API) Create(w http.ResponseWriter, r *http.Request) {
	a.save("c") // reports: `^\(\*API\).Create calls api.\(\*API\).save → net/http.Get, .* \(SIO001\)$` `^\(\*API\).Create calls api.\(\*API\).save → api.\(\*API\).notify → a.N.Notify .*ExecContext, which is given context.Background\(\).* \(SIO002\)$`
}

func (a *API) Update(w http.ResponseWriter, r *http.Request) {
	a.save("u") // reports: `^\(\*API\).Update calls api.\(\*API\).save → net/http.Get, .* \(SIO001\)$` `^\(\*API\).Update calls .*ExecContext, which is given context.Background\(\).* \(SIO002\)$`
}

// Delete reaches only the notifier: nothing was reported at its call
// below, so both of the query's rules are reported here.
func (a *API) Delete(w http.ResponseWriter, r *http.Request) {
	a.notify("d") // reports: `^\(\*API\).Delete calls api.\(\*API\).notify → a.N.Notify \(api.Notifier, bound to \*app.dbNotifier in app.Routes\) → app.\(\*dbNotifier\).Notify → database/sql.\(\*DB\).Exec, which .* \(SIO001\)$` `^\(\*API\).Delete calls .*ExecContext, which is given context.Background\(\).* \(SIO002\)$`
}

// Audit's call is reported here for SIO002 (a lookup on a detached
// context): the notifier's SIO002 is reported at the interface call,
// naming Audit alone, and its SIO001 here, at Audit's call.
func (a *API) Audit(w http.ResponseWriter, r *http.Request) {
	a.audit("a") // reports: `^\(\*API\).Audit calls api.\(\*API\).audit → net.\(\*Resolver\).LookupHost, which is given context.Background\(\).* \(SIO002\)$` `^\(\*API\).Audit calls api.\(\*API\).audit → api.\(\*API\).notify → a.N.Notify .*database/sql.\(\*DB\).Exec, .* \(SIO001\)$`
}

func (a *API) audit(user string) {
	_, _ = net.DefaultResolver.LookupHost(context.Background(), "audit.example.com")
	a.notify(user)
}

// Quiet's notifier call carries an ignore: what app binds there is hidden
// at the interface call, and the fetch stays reported at Quiet's call.
type Quiet struct{ N Notifier }

func (q *Quiet) ping(user string) {
	resp, err := http.Get("http://example.com/ping/" + user)
	if err == nil {
		resp.Body.Close()
	}
	//syncio:ignore SIO001 -- the notifier only appends to a local table
	q.N.Notify(user)
}

func (q *Quiet) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q.ping("q") // reports: `^\(\*Quiet\).ServeHTTP calls api.\(\*Quiet\).ping → net/http.Get, .* \(SIO001\)$` `^\(\*Quiet\).ServeHTTP calls .*ExecContext, which is given context.Background\(\).* \(SIO002\)$`
}
