// Package analyzer implements the syncio go/analysis Analyzer. It finds
// blocking I/O on HTTP request paths (net/http, gin, echo, fiber and gRPC
// handlers) and reports it at the root's call that leads to the blocking
// operation, with the call chain in the message.
//
// Frameworks are recognised by import path and type name only, so the
// analyzer has no dependency on any of them.
//
// # Request roots
//
//   - net/http: functions, methods and func literals of type
//     func(http.ResponseWriter, *http.Request), ServeHTTP included;
//   - gin func(*gin.Context), echo func(echo.Context) error, fiber
//     func(*fiber.Ctx) error (v2) and func(fiber.Ctx) error (v3), as
//     declarations or as func literals anywhere (router arguments included);
//   - gRPC unary methods (ctx context.Context, req *T) (*U, error) on a type
//     that embeds a generated Unimplemented*Server;
//   - any function whose doc comment holds //syncio:handler.
//
// # Rules
//
// SIO001 (blocking-call) flags context-less calls from a data-driven table
// (Config.Blocking) that have a context-aware variant. SIO002
// (dropped-context) flags a call whose first parameter is context.Context
// when it is given context.Background(), context.TODO(), or a local
// variable derived only from those; contexts of unknown origin (fields,
// function results) are never flagged, and context.WithoutCancel is a
// deliberate detach. SIO005 (uncancellable-wait) flags time.Sleep,
// WaitGroup and Cond waits, bare channel sends and receives, range over a
// channel, and select statements with neither a x.Done() case nor default.
// SIO003 (lock-across-io) flags a sync.Mutex/RWMutex held (Lock…Unlock in a
// block, or Lock + defer Unlock) across any of those or across
// context-aware I/O (lockRegions, ioCalls). SIO004 (client-per-request)
// flags http.Transport literals and pool/SDK client constructors (libs.go);
// SIO006 (file-io, opt-in) flags os file I/O. gorm (gorm.io/gorm and v1) and
// sqlx are recognised by import path: a gorm finisher on a chain rooted at a
// field or global with no WithContext is SIO001, sqlx's context-less
// methods are table entries. The SDK entries (go-redis v6/v7, mongo-driver
// v1 GridFS, aws-sdk-go v1, Qiniu, Aliyun OSS, Huawei OBS) are in libs.go,
// with their evidence in docs/rules/libraries.md; ctxRouted skips a call
// whose receiver or options may carry the context (go-redis v7's
// WithContext, oss.WithContext), which its key cannot show.
//
// # Configuration
//
// Config (and its flags -rules, -tests, -blocking, -allow, -roots) and
// Settings, the golangci-lint plugin's keys, share one parser:
// Settings.Config validates and builds a Config.
//
// # Interprocedural analysis
//
// Every function that is not a root and blocks (directly or through static
// callees, recursion included) exports a blocksFact with its chain, so
// callers in other packages see it under any go/analysis driver. A function
// that only does context-aware I/O exports a weaker fact (no rule) so that a
// caller holding a lock across it is SIO003; a fact records its
// highest-ranked path (rule + lock, rule, I/O under a lock, plain I/O) and,
// bounded by the number of rules, the highest-ranked path of each other
// rule, so a root's call is reported once per rule it leads to. Calls
// through interfaces and func values are not followed. Bodies of go
// statements and func literals that are not called on the spot are off the
// request path. The standard library is not analysed: its blocking APIs are
// judged at the caller through the SIO001 table. Packages of dependency
// modules (a module with a version, read from the module cache or from
// vendor/) are analysed too, with two exceptions measured on real
// services (docs/precision.md): their bare channel operations and
// selects are their own synchronisation and are no SIO005 wait, and SIO002
// there needs a static callee, since an interface method given
// context.Background() is no evidence of I/O. main and init are never
// request paths; _test.go files are only with Config.Tests.
//
// # Suppression
//
// //syncio:ignore SIO001[,SIO005] -- reason, on the reported line or the line
// above, or in a function's doc comment for the whole function (and the
// handler literals inside it). In a helper
// it also stops the helper from exporting that finding to its callers. An
// ignore without a reason still suppresses but is itself reported, under the
// first rule it names (SIO000 when it names no valid rule). An ignore that
// hides nothing in this package is reported as stale, unless a rule it
// names is switched off.
package analyzer
