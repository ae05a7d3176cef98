package knowledge

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Files of the embedded tables, as named in error messages and docs: their
// paths in the repository.
const (
	BlockingFile = "analyzer/internal/knowledge/blocking.txt"
	CallsFile    = "analyzer/internal/knowledge/calls.txt"
)

//go:embed blocking.txt
var blockingTable string

//go:embed calls.txt
var callsTable string

// Kind is what a row says of its call, and so which rule reads it.
type Kind string

const (
	// KindBlocking: a context-less call with a context-aware variant, or
	// I/O the request cannot cancel (SIO001). The default kind.
	KindBlocking Kind = "blocking"
	// KindClient: a constructor that builds a client with its own
	// connections or pool (SIO004 when called on a request path).
	KindClient Kind = "client"
	// KindWait: a wait with no way to be cancelled (SIO005).
	KindWait Kind = "wait"
	// KindFile: file I/O (SIO006).
	KindFile Kind = "file"
	// KindIO: I/O that honours its context: fine on its own, counted under
	// a lock (SIO003) or an open transaction (SIO007).
	KindIO Kind = "io"
	// KindMemory: a function of an in-memory library that takes a context
	// and does no I/O with it: the context reaches only the func values the
	// program registers with the library (go-playground/validator's
	// StructCtx and the validation funcs). Given a dropped context it is
	// no SIO002 unless the program hands that library a func taking a
	// context.
	KindMemory Kind = "memory"
	// KindNoIO: a dependency's function that takes a context and does no
	// I/O: it keeps the context in what it builds and returns, whose
	// methods do the I/O later (x/oauth2's Config.TokenSource). It is not
	// presumed to do I/O as other context-taking calls into a dependency
	// are (SIO003, SIO007); what the program does with the result is
	// judged at that call, and the rules that read the context it is
	// given (SIO002) are unchanged.
	KindNoIO Kind = "noio"
	// KindExit: a call that ends the process (os.Exit, log.Fatal, the
	// loggers' Fatal methods). What a block ending in it leads to is no
	// request-path finding: the request is not served either way.
	KindExit Kind = "exit"
	// KindCallback: a standard-library function that calls some of its
	// func parameters (params, by index) before it returns, so a function
	// given there runs on the caller's path (StdCallbacks); with "runs:
	// once", only the first call for a value runs it (sync.(*Once).Do,
	// StdOnce). The standard library is not analysed, so these are rows;
	// a dependency's callbacks are found in its source. A table's own
	// kind: a user's entry cannot give it.
	KindCallback Kind = "callback"
	// KindGo: a call that runs its function arguments in new goroutines,
	// as a go statement does (errgroup's Go): the work that a join wait
	// (a wait row's joins field) joins (GoStarters). A table's own kind.
	KindGo Kind = "go"
	// KindFinisher: a method that runs the query its chain built, with
	// the context the chain gave it (WithContext) or none, which its own
	// source cannot show (it tests the stored context at run time): it is
	// judged at the caller by its chain (dbx's Execute, One, All, …;
	// DbxFinisher). A table's own kind.
	KindFinisher Kind = "finisher"
	// KindNoQuery: a method of gorm's Migrator that runs no query: it
	// describes types from the schema. Every other Migrator method runs
	// its queries on the chain it was built from (GormMigratorMethod). A
	// table's own kind.
	KindNoQuery Kind = "noquery"
	// KindOptIn: a dependency's function that runs only in a mode the
	// program opts into with another call, which a blocking row names
	// where the program makes it (pop's preload runs only after the
	// query's EagerPreload): it is not followed, so its I/O is reported
	// at the opt-in call instead of at every query (OptIn). A table's own
	// kind.
	KindOptIn Kind = "optin"
	// KindInMemory: a constructor of a dependency whose result is an
	// in-memory implementation of a general type, whose other
	// implementations do I/O (gocloud's localsecrets.NewKeeper: a
	// *secrets.Keeper sealing with nacl secretbox, where awskms's calls a
	// remote KMS): a method called on a local variable that only such
	// constructors assign does no I/O (InMemoryCtor). A table's own kind.
	KindInMemory Kind = "inmemory"
	// KindServe: a call that serves HTTP with a server whose timeouts are
	// all zero: net/http's package-level ListenAndServe and Serve, and the
	// frameworks' shortcuts over them (gin's Run). SIO008 flags it where
	// the program calls it (ZeroServers). A table's own kind.
	KindServe Kind = "serve"
	// KindRoute: a router's method (or a package's function) that hands a
	// request handler to the router, the rows of routes.txt: its
	// framework, the handler argument and whether the arguments after it
	// are handlers too (Registrations, RegistrationOf). A table's own
	// kind.
	KindRoute Kind = "route"
)

// kinds are the kinds a user's entry may give; tableKinds only the
// embedded tables.
var (
	kinds      = []Kind{KindBlocking, KindClient, KindWait, KindFile, KindIO, KindMemory, KindNoIO, KindExit}
	tableKinds = []Kind{KindCallback, KindGo, KindFinisher, KindNoQuery, KindServe, KindRoute, KindOptIn, KindInMemory}
)

// Row is one row of a table: a call and what is known of it.
type Row struct {
	// Key names the call: "pkg/path.Func", "pkg/path.(*Type).Method" or
	// "pkg/path.Type.Method" (Type may be an interface). A client row may
	// end its key in "*": "pkg/path.NewClient*" stands for every
	// package-level function of pkg/path whose name starts NewClient.
	Key  string
	Kind Kind
	// Use is the replacement, shown after "use " in the message (blocking).
	Use string
	// Method is the context-aware method or function taking ctx first; it
	// turns on the suggested fix (rename, insert ctx) (blocking).
	Method string
	// ExtraArgs follow ctx in the fix ("nil" for Begin → BeginTx(ctx, nil))
	// (blocking).
	ExtraArgs string
	// Verb replaces the message's default "blocks without the request
	// context" wording (blocking).
	Verb string
	// Routed names the hook (one of RoutedHooks) that judges, from the
	// call's receiver or arguments, whether the call may carry the request
	// context after all, which its key cannot show (blocking).
	Routed string
	// Request is the HTTP method a net/http shortcut sends (GET, HEAD or
	// POST): it turns on the fix that rewrites `resp, err := http.Get(url)`
	// into NewRequestWithContext and Do (HTTPShortcuts) (blocking; tables
	// only).
	Request string
	// Builds says what the constructor builds, for the message (client).
	Builds string
	// Hint says how to make the wait cancellable (wait).
	Hint string
	// Joins says what a wait joins, when it is judged by that work rather
	// than at the call: JoinsGoroutines or JoinsArguments (wait; tables
	// only).
	Joins string
	// Params are the indexes of the func parameters a callback row's
	// function calls, comma-separated ("1", "0,2"); Indexes parses them
	// (callback).
	Params string
	// Runs is RunsOnce when the function given runs once per value, not
	// per call (callback).
	Runs string
	// Serves names the receiver's *http.Server field a serve row's method
	// serves (echo's Start serves e.Server): the program may set its
	// timeouts, so the call is judged like a server it built, by the
	// stores of the package (serve; tables only). Without it the server
	// is built inside the call, where no field can be set.
	Serves string
	// Framework names the router's framework as the roots line shows it
	// ("gin", "chi", …) (route).
	Framework string
	// Handler is the index, from 0, of the handler argument, or
	// HandlerField when the key names a struct field of the router type
	// that a program sets to a handler (gorilla's NotFoundHandler)
	// (route).
	Handler string
	// Chain is ChainYes when every argument after the handler is a
	// handler too, of the same type (gin, fiber, hertz: a route's
	// middleware and its handler); without it later arguments are no
	// handlers (echo's m ...MiddlewareFunc) (route).
	Chain string
	// Evidence says why the row holds: the module version read and the
	// file:line that does the I/O or builds the pool
	// (docs/rules/libraries.md tells the story).
	Evidence string
	// File and Line are where the row was read (empty and 0 for a row
	// given on its own, as in a configuration entry).
	File string
	Line int
}

// Field names of a row, in the order the table writes them.
const (
	FieldKind      = "kind"
	FieldUse       = "use"
	FieldMethod    = "method"
	FieldExtraArgs = "extra-args"
	FieldVerb      = "verb"
	FieldRouted    = "routed"
	FieldRequest   = "request"
	FieldBuilds    = "builds"
	FieldHint      = "hint"
	FieldJoins     = "joins"
	FieldParams    = "params"
	FieldRuns      = "runs"
	FieldServes    = "serves"
	FieldFramework = "framework"
	FieldHandler   = "handler"
	FieldChain     = "chain"
	FieldEvidence  = "evidence"
)

var fieldNames = []string{FieldKind, FieldUse, FieldMethod, FieldExtraArgs, FieldVerb, FieldRouted, FieldRequest, FieldBuilds, FieldHint, FieldJoins, FieldParams, FieldRuns, FieldServes, FieldFramework, FieldHandler, FieldChain, FieldEvidence}

// tableFields are the fields only the embedded tables may give: a user's
// entry is told they do not exist.
var tableFields = map[string]bool{FieldRequest: true, FieldJoins: true, FieldParams: true, FieldRuns: true, FieldServes: true, FieldFramework: true, FieldHandler: true, FieldChain: true}

// Values of the joins and runs fields.
const (
	// JoinsGoroutines: the wait joins the goroutines its function starts
	// (go statements, GoStarters' calls): sync.(*WaitGroup).Wait.
	JoinsGoroutines = "goroutines"
	// JoinsArguments: the wait joins the call's own function arguments,
	// run by another caller (singleflight's Do) or by a pool's worker
	// (pond's SubmitAndWait).
	JoinsArguments = "arguments"
	// RunsOnce: a callback row's function runs once per value.
	RunsOnce = "once"
	// ChainYes: a route row's arguments after the handler are handlers too.
	ChainYes = "yes"
	// HandlerField: a route row's key names a field of the router type,
	// and the value assigned to it is the handler.
	HandlerField = "field"
)

// kindFields are the fields each kind takes besides kind and evidence.
var kindFields = map[Kind][]string{
	KindBlocking: {FieldUse, FieldMethod, FieldExtraArgs, FieldVerb, FieldRouted, FieldRequest},
	KindClient:   {FieldBuilds},
	KindWait:     {FieldHint, FieldJoins},
	KindFile:     nil,
	KindIO:       nil,
	KindMemory:   nil,
	KindNoIO:     nil,
	KindExit:     nil,
	KindCallback: {FieldParams, FieldRuns},
	KindGo:       nil,
	KindFinisher: nil,
	KindNoQuery:  nil,
	KindOptIn:    nil,
	KindInMemory: nil,
	KindServe:    {FieldServes},
	KindRoute:    {FieldFramework, FieldHandler, FieldChain},
}

// required are the fields every row of a kind needs in a table (a user's
// entry may leave them out and gets a default).
var required = map[Kind][]string{KindBlocking: {FieldUse}, KindClient: {FieldBuilds}, KindWait: {FieldHint}, KindCallback: {FieldParams}, KindRoute: {FieldFramework, FieldHandler}}

// Hooks that a blocking row's routed field may name. The analyzer
// implements each (ctxRouted in package analyzer): they are predicates on
// the call's receiver and arguments, which a table cannot express.
const (
	// RoutedStoredReceiver: report only when the receiver is a struct
	// field or a package-level variable (a stored client carries no
	// request context); a local or parameter may carry one (go-redis v7's
	// rdb.WithContext(ctx)).
	RoutedStoredReceiver = "stored-receiver"
	// RoutedOSSOption: report only when every variadic option is a call to
	// another function of the oss package, so none can be
	// oss.WithContext(ctx).
	RoutedOSSOption = "oss-option"
	// RoutedQiniuGetInput: report only when the third argument is nil or
	// a GetObjectInput literal without Context.
	RoutedQiniuGetInput = "qiniu-get-input"
)

// RoutedHooks lists the hook names a row may reference.
var RoutedHooks = []string{RoutedStoredReceiver, RoutedOSSOption, RoutedQiniuGetInput}

// RowSyntax is what a row looks like, for error messages.
const RowSyntax = `want "pkg/path.Func | use: replacement" (SIO001), "pkg/path.NewX | builds: what it builds" (SIO004) or "pkg/path.(*T).Wait | hint: how to cancel it" (SIO005), each optionally "| evidence: text"; see docs/rules/libraries.md`

// ParseRow parses one row of the tables' format, as a user's entry gives
// it:
//
//	key | kind: name | field: value | … | evidence: text
//
// Only the key is required here; the fields may come in any order, each
// once. Without a kind field the kind is client when builds is given,
// wait when hint is, else blocking. A value may not contain "|". The
// tables' own kinds (callback, go, finisher, noquery, route) and fields
// (request, joins, params, runs, framework, handler, chain) are unknown
// here: only ParseTable reads them.
func ParseRow(s string) (Row, error) { return parseRow(s, false) }

// parseRow is ParseRow; table says the row is an embedded table's, which
// may give the tables' own kinds and fields.
func parseRow(s string, table bool) (Row, error) {
	names := fieldNames
	if !table {
		names = userFields(fieldNames)
	}
	parts := strings.Split(s, "|")
	rawKey := strings.TrimSpace(parts[0])
	pattern := strings.HasSuffix(rawKey, "*")
	key, err := ParseKey(strings.TrimSuffix(rawKey, "*"))
	if err != nil {
		return Row{}, err
	}
	r := Row{Key: key}
	if pattern {
		r.Key += "*"
	}
	seen := map[string]bool{}
	kind := ""
	for _, p := range parts[1:] {
		name, val, ok := strings.Cut(p, ":")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		field := r.field(name)
		if !table && tableFields[name] {
			field = nil
		}
		switch {
		case !ok || (field == nil && name != FieldKind):
			return Row{}, fmt.Errorf("%s: field %q: want one of %s, as \"name: value\"", r.Key, strings.TrimSpace(p), strings.Join(names, ", "))
		case seen[name]:
			return Row{}, fmt.Errorf("%s: field %q given twice", r.Key, name)
		case val == "":
			return Row{}, fmt.Errorf("%s: field %q is empty", r.Key, name)
		}
		seen[name] = true
		if name == FieldKind {
			kind = val
			continue
		}
		*field = val
	}
	switch {
	case kind != "":
		r.Kind = Kind(kind)
		known := kinds
		if table {
			known = append(append([]Kind(nil), kinds...), tableKinds...)
		}
		if !slices.Contains(known, r.Kind) {
			names := make([]string, len(known))
			for i, k := range known {
				names[i] = string(k)
			}
			return Row{}, fmt.Errorf("%s: kind %q: want one of %s", r.Key, kind, strings.Join(names, ", "))
		}
	case seen[FieldBuilds]:
		r.Kind = KindClient
	case seen[FieldHint]:
		r.Kind = KindWait
	default:
		r.Kind = KindBlocking
	}
	allowed := map[string]bool{FieldKind: true, FieldEvidence: true}
	for _, f := range kindFields[r.Kind] {
		allowed[f] = true
	}
	for _, name := range fieldNames {
		if seen[name] && !allowed[name] {
			own := append(kindFields[r.Kind][:len(kindFields[r.Kind]):len(kindFields[r.Kind])], FieldEvidence)
			if !table {
				own = userFields(own)
			}
			return Row{}, fmt.Errorf("%s: field %q does not belong in a %s row (its fields: %s)", r.Key, name, r.Kind, strings.Join(own, ", "))
		}
	}
	if pattern && (r.Kind != KindClient || strings.ContainsAny(key[strings.LastIndex(key, "/")+1:], "()") || strings.Count(key[strings.LastIndex(key, "/")+1:], ".") != 1) {
		return Row{}, fmt.Errorf("%s: a key ending in * (every package-level function whose name starts so) is for client rows only, as pkg/path.NewClient*", r.Key)
	}
	if r.Method != "" && !IsIdent(r.Method) {
		return Row{}, fmt.Errorf("%s: method %q: want the name of the context-aware method or function, e.g. QueryContext", r.Key, r.Method)
	}
	if r.ExtraArgs != "" && r.Method == "" {
		return Row{}, fmt.Errorf("%s: extra-args without method: the arguments follow ctx in the fix, which needs the method", r.Key)
	}
	if r.Routed != "" && !isHook(r.Routed) {
		return Row{}, fmt.Errorf("%s: routed %q: want one of %s", r.Key, r.Routed, strings.Join(RoutedHooks, ", "))
	}
	if r.Request != "" && httpMethods[r.Request] == "" {
		return Row{}, fmt.Errorf("%s: request %q: want GET, HEAD or POST", r.Key, r.Request)
	}
	if r.Joins != "" && r.Joins != JoinsGoroutines && r.Joins != JoinsArguments {
		return Row{}, fmt.Errorf("%s: joins %q: want %s or %s", r.Key, r.Joins, JoinsGoroutines, JoinsArguments)
	}
	if r.Params != "" && r.Indexes() == nil {
		return Row{}, fmt.Errorf("%s: params %q: want parameter indexes from 0, comma-separated, e.g. 1 or 0,2", r.Key, r.Params)
	}
	if r.Runs != "" && r.Runs != RunsOnce {
		return Row{}, fmt.Errorf("%s: runs %q: want %s (or no runs field: every call runs it)", r.Key, r.Runs, RunsOnce)
	}
	if r.Handler != "" && r.Handler != HandlerField && r.HandlerIndex() < 0 {
		return Row{}, fmt.Errorf("%s: handler %q: want the handler argument's index from 0, e.g. 1, or %s for a field", r.Key, r.Handler, HandlerField)
	}
	if r.Chain != "" && r.Chain != ChainYes {
		return Row{}, fmt.Errorf("%s: chain %q: want %s (or no chain field: the arguments after the handler are no handlers)", r.Key, r.Chain, ChainYes)
	}
	if r.Chain != "" && r.Handler == HandlerField {
		return Row{}, fmt.Errorf("%s: chain with handler %s: a field holds one handler", r.Key, HandlerField)
	}
	return r, nil
}

// userFields returns names less the tables' own fields.
func userFields(names []string) []string {
	var out []string
	for _, n := range names {
		if !tableFields[n] {
			out = append(out, n)
		}
	}
	return out
}

// Indexes returns the parameter indexes of a callback row's params field,
// or nil when it is empty or malformed.
func (r Row) Indexes() []int {
	if r.Params == "" {
		return nil
	}
	var out []int
	for _, p := range strings.Split(r.Params, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || i < 0 {
			return nil
		}
		out = append(out, i)
	}
	return out
}

// HandlerIndex returns a route row's handler field as an index, or -1
// when it is empty, malformed or HandlerField.
func (r Row) HandlerIndex() int {
	i, err := strconv.Atoi(r.Handler)
	if err != nil || i < 0 {
		return -1
	}
	return i
}

func isHook(name string) bool {
	for _, h := range RoutedHooks {
		if h == name {
			return true
		}
	}
	return false
}

func (r *Row) field(name string) *string {
	switch name {
	case FieldUse:
		return &r.Use
	case FieldMethod:
		return &r.Method
	case FieldExtraArgs:
		return &r.ExtraArgs
	case FieldVerb:
		return &r.Verb
	case FieldRouted:
		return &r.Routed
	case FieldBuilds:
		return &r.Builds
	case FieldRequest:
		return &r.Request
	case FieldHint:
		return &r.Hint
	case FieldJoins:
		return &r.Joins
	case FieldParams:
		return &r.Params
	case FieldRuns:
		return &r.Runs
	case FieldServes:
		return &r.Serves
	case FieldFramework:
		return &r.Framework
	case FieldHandler:
		return &r.Handler
	case FieldChain:
		return &r.Chain
	case FieldEvidence:
		return &r.Evidence
	}
	return nil
}

// ParseTable parses a table: one row per line (ParseRow), blank lines and
// lines starting with "#" skipped. Every row must have an evidence field
// and its kind's required fields (use, builds, hint, params, or framework
// and handler), and no key may repeat. Errors name file:line.
func ParseTable(file, data string) ([]Row, error) {
	var rows []Row
	first := map[string]int{}
	for i, line := range strings.Split(data, "\n") {
		n := i + 1
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r, err := parseRow(line, true)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w; %s", file, n, err, RowSyntax)
		}
		for _, name := range append(required[r.Kind][:len(required[r.Kind]):len(required[r.Kind])], FieldEvidence) {
			if *r.field(name) == "" {
				return nil, fmt.Errorf("%s:%d: %s: no %s field (every %s row of the table needs one)", file, n, r.Key, name, r.Kind)
			}
		}
		if at, dup := first[r.Key]; dup {
			return nil, fmt.Errorf("%s:%d: %s is already at line %d", file, n, r.Key, at)
		}
		first[r.Key] = n
		r.File, r.Line = file, n
		rows = append(rows, r)
	}
	return rows, nil
}

// BuiltinRows returns the embedded tables, blocking.txt then calls.txt,
// parsed on first use. No key is in both. The rows are shared: callers
// copy what they change.
var BuiltinRows = sync.OnceValues(func() ([]Row, error) {
	var all []Row
	at := map[string]Row{}
	for _, t := range [...]struct{ file, data string }{{BlockingFile, blockingTable}, {CallsFile, callsTable}} {
		rows, err := ParseTable(t.file, t.data)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if prev, dup := at[r.Key]; dup {
				return nil, fmt.Errorf("%s:%d: %s is already at %s:%d", r.File, r.Line, r.Key, prev.File, prev.Line)
			}
			at[r.Key] = r
		}
		all = append(all, rows...)
	}
	return all, nil
})

// String renders r as a row of the table, fields in the table's order; the
// kind is written when the other fields do not imply it.
func (r Row) String() string {
	var sb strings.Builder
	sb.WriteString(r.Key)
	implied := KindBlocking
	switch {
	case r.Builds != "":
		implied = KindClient
	case r.Hint != "":
		implied = KindWait
	}
	if r.Kind != "" && r.Kind != implied {
		sb.WriteString(" | " + FieldKind + ": " + string(r.Kind))
	}
	for _, name := range fieldNames[1:] {
		if v := *r.field(name); v != "" {
			sb.WriteString(" | " + name + ": " + v)
		}
	}
	return sb.String()
}

// MatchPattern reports whether the package-level function name of the
// package pkgPath is matched by a pattern row of table, one whose key ends
// in "*" ("pkg/path.NewClient*": every function of pkg/path whose name
// starts NewClient), and returns that row's key.
func MatchPattern[V any](table map[string]V, pkgPath, name string) (string, bool) {
	for i := len(name); i > 0; i-- {
		p := pkgPath + "." + name[:i] + "*"
		if _, ok := table[p]; ok {
			return p, true
		}
	}
	return "", false
}
