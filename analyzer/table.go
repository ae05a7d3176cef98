package analyzer

// defaultBlocking is the SIO001 table: context-less calls that have a
// context-aware variant. It covers noctx's list; the SDK entries are in
// libs.go (libraryBlocking), with their evidence in
// docs/rules/libraries.md.
var defaultBlocking = merged(sqlxBlocking(), libraryBlocking(), map[string]Replacement{
	// net/http package-level helpers use http.DefaultClient with no context.
	"net/http.Get":      {Use: "http.NewRequestWithContext(ctx, http.MethodGet, url, nil) and http.DefaultClient.Do(req)"},
	"net/http.Head":     {Use: "http.NewRequestWithContext(ctx, http.MethodHead, url, nil) and http.DefaultClient.Do(req)"},
	"net/http.Post":     {Use: "http.NewRequestWithContext(ctx, http.MethodPost, url, body) and http.DefaultClient.Do(req)"},
	"net/http.PostForm": {Use: "http.NewRequestWithContext(ctx, http.MethodPost, url, body) and http.DefaultClient.Do(req)"},
	"net/http.NewRequest": {
		Use: "http.NewRequestWithContext(ctx, ...)", Verb: "builds a request without the request context",
		Method: "NewRequestWithContext",
	},
	"net/http.(*Client).Get":      {Use: "http.NewRequestWithContext(ctx, http.MethodGet, url, nil) and client.Do(req)"},
	"net/http.(*Client).Head":     {Use: "http.NewRequestWithContext(ctx, http.MethodHead, url, nil) and client.Do(req)"},
	"net/http.(*Client).Post":     {Use: "http.NewRequestWithContext(ctx, http.MethodPost, url, body) and client.Do(req)"},
	"net/http.(*Client).PostForm": {Use: "http.NewRequestWithContext(ctx, http.MethodPost, url, body) and client.Do(req)"},

	"net.Dial":         {Use: "(&net.Dialer{}).DialContext(ctx, ...)"},
	"net.DialTimeout":  {Use: "(&net.Dialer{Timeout: d}).DialContext(ctx, ...)"},
	"net.Listen":       {Use: "(&net.ListenConfig{}).Listen(ctx, ...)"},
	"net.ListenPacket": {Use: "(&net.ListenConfig{}).ListenPacket(ctx, ...)"},
	"net.LookupAddr":   {Use: "net.DefaultResolver.LookupAddr(ctx, ...)"},
	"net.LookupCNAME":  {Use: "net.DefaultResolver.LookupCNAME(ctx, ...)"},
	"net.LookupHost":   {Use: "net.DefaultResolver.LookupHost(ctx, ...)"},
	"net.LookupIP":     {Use: "net.DefaultResolver.LookupIP(ctx, network, host)"},
	"net.LookupMX":     {Use: "net.DefaultResolver.LookupMX(ctx, ...)"},
	"net.LookupNS":     {Use: "net.DefaultResolver.LookupNS(ctx, ...)"},
	"net.LookupPort":   {Use: "net.DefaultResolver.LookupPort(ctx, ...)"},
	"net.LookupSRV":    {Use: "net.DefaultResolver.LookupSRV(ctx, ...)"},
	"net.LookupTXT":    {Use: "net.DefaultResolver.LookupTXT(ctx, ...)"},

	"crypto/tls.Dial":              {Use: "(&tls.Dialer{Config: cfg}).DialContext(ctx, ...)"},
	"crypto/tls.DialWithDialer":    {Use: "(&tls.Dialer{NetDialer: d, Config: cfg}).DialContext(ctx, ...)"},
	"crypto/tls.(*Conn).Handshake": {Use: "conn.HandshakeContext(ctx)", Method: "HandshakeContext"},

	"database/sql.(*DB).Exec":     {Use: "db.ExecContext(ctx, ...)", Method: "ExecContext"},
	"database/sql.(*DB).Query":    {Use: "db.QueryContext(ctx, ...)", Method: "QueryContext"},
	"database/sql.(*DB).QueryRow": {Use: "db.QueryRowContext(ctx, ...)", Method: "QueryRowContext"},
	"database/sql.(*DB).Prepare":  {Use: "db.PrepareContext(ctx, ...)", Method: "PrepareContext"},
	"database/sql.(*DB).Begin":    {Use: "db.BeginTx(ctx, nil)", Method: "BeginTx", ExtraArgs: "nil"},
	"database/sql.(*DB).Ping":     {Use: "db.PingContext(ctx)", Method: "PingContext"},
	"database/sql.(*Tx).Exec":     {Use: "tx.ExecContext(ctx, ...)", Method: "ExecContext"},
	"database/sql.(*Tx).Query":    {Use: "tx.QueryContext(ctx, ...)", Method: "QueryContext"},
	"database/sql.(*Tx).QueryRow": {Use: "tx.QueryRowContext(ctx, ...)", Method: "QueryRowContext"},
	"database/sql.(*Tx).Prepare":  {Use: "tx.PrepareContext(ctx, ...)", Method: "PrepareContext"},
	"database/sql.(*Tx).Stmt":     {Use: "tx.StmtContext(ctx, stmt)", Method: "StmtContext"},
	"database/sql.(*Stmt).Exec":   {Use: "stmt.ExecContext(ctx, ...)", Method: "ExecContext"},
	"database/sql.(*Stmt).Query":  {Use: "stmt.QueryContext(ctx, ...)", Method: "QueryContext"},
	"database/sql.(*Stmt).QueryRow": {
		Use: "stmt.QueryRowContext(ctx, ...)", Method: "QueryRowContext",
	},

	// redigo's Conn is an interface (pooled, logging and plain conns
	// implement it), so these keys match calls through redis.Conn and
	// every interface embedding it. DoContext and ReceiveContext are
	// package functions taking the conn (checked in v1.9.3; the 2018
	// v2.0.1 pseudo-version has only DoWithTimeout). Send has no context
	// variant and only fills the output buffer; Flush, which writes it, has
	// none either, so neither is listed.
	"github.com/gomodule/redigo/redis.Conn.Do": {
		Use:  "redis.DoContext(conn, ctx, cmd, args...) (in older redigo, redis.DoWithTimeout)",
		Verb: "does a Redis round trip the request cannot cancel",
	},
	"github.com/gomodule/redigo/redis.Conn.Receive": {
		Use:  "redis.ReceiveContext(conn, ctx) (in older redigo, redis.ReceiveWithTimeout)",
		Verb: "waits for a Redis reply the request cannot cancel",
	},

	"os/exec.Command": {
		Use: "exec.CommandContext(ctx, ...)", Verb: "starts a process the request cannot cancel",
		Method: "CommandContext",
	},
})

// merged returns the union of tables.
func merged(tables ...map[string]Replacement) map[string]Replacement {
	out := map[string]Replacement{}
	for _, t := range tables {
		for k, v := range t {
			out[k] = v
		}
	}
	return out
}

// httpShortcuts are the net/http calls whose fix rewrites the whole
// `resp, err := …` statement into NewRequestWithContext + Do. The value is
// the http.Method constant to use.
var httpShortcuts = map[string]string{
	"net/http.Get":            "http.MethodGet",
	"net/http.Head":           "http.MethodHead",
	"net/http.Post":           "http.MethodPost",
	"net/http.(*Client).Get":  "http.MethodGet",
	"net/http.(*Client).Head": "http.MethodHead",
	"net/http.(*Client).Post": "http.MethodPost",
}

// waitFuncs are SIO005 calls that wait with no way to be cancelled.
var waitFuncs = map[string]string{
	"time.Sleep":             "wait in a select on ctx.Done() and a time.Timer's channel",
	"sync.(*WaitGroup).Wait": "start the goroutines with errgroup.WithContext(ctx) and pass its context to their I/O, so the work itself stops with the request (waiting for Wait in another goroutine would leave it running)",
	"sync.(*Cond).Wait":      "use a channel and select on it and ctx.Done(); sync.Cond cannot be cancelled",
	// Judged at the call like WaitGroup.Wait, whatever their source says
	// (in a dependency, joins.go judges them by the work they join).
	"golang.org/x/sync/errgroup.(*Group).Wait":   "build the group with errgroup.WithContext(ctx) and have every goroutine return when that context is done",
	"golang.org/x/sync/singleflight.(*Group).Do": "use DoChan and select on its channel and ctx.Done()",
}
