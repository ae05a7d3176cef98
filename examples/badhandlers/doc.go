// Package badhandlers is deliberately bad code: HTTP handlers (net/http and
// gin) that wait on I/O without the request's context, so that syncio has
// something real to report. Do not copy it; docs/ shows the fixes.
//
// Each line that syncio must flag ends with a marker comment naming the
// rule, e.g. "// syncio: SIO001"; the handlers marked "// syncio: clean" do
// everything with the request's context and must produce no finding. The
// tests in cmd/syncio read these markers, so keep them in step with the
// code.
//
// Why it matters in Go: a goroutine parked on the network is cheap, but
// one that waits without the request's context cannot be cancelled when the
// client goes away, and it keeps holding whatever it holds (a pool slot, a
// database connection, a lock) until the wait ends by itself.
//
// The *sql.DB is only a field: no driver is imported and nothing here
// opens a connection, because the package only has to compile and be
// analysed, never to run against a database.
package badhandlers
