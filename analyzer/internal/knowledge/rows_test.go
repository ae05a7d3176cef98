package knowledge

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestBuiltinRowsParse: the embedded tables parse, so the analyzer's
// start-up (which panics on a bad embedded row) cannot fail in a release;
// blocking.txt holds the SIO001 rows and calls.txt the others.
func TestBuiltinRowsParse(t *testing.T) {
	rows, err := BuiltinRows()
	if err != nil {
		t.Fatal(err)
	}
	n := map[Kind]int{}
	for _, r := range rows {
		n[r.Kind]++
		if r.Line == 0 || r.Evidence == "" || slices.ContainsFunc(required[r.Kind], func(f string) bool { return *r.field(f) == "" }) {
			t.Errorf("row %+v: no line, evidence or one of %s", r, required[r.Kind])
		}
		if (r.File == BlockingFile) != (r.Kind == KindBlocking) {
			t.Errorf("%s:%d: a %s row (blocking rows go in %s, the others in %s)", r.File, r.Line, r.Kind, BlockingFile, CallsFile)
		}
		if r.Kind == KindRoute {
			t.Errorf("%s:%d: a route row (route rows go in %s, which BuiltinRows does not read)", r.File, r.Line, RoutesFile)
		}
	}
	for _, r := range rows {
		slash := strings.LastIndex(r.Key, "/") + 1
		if r.Kind == KindCallback && !StdPath(r.Key[:slash+strings.Index(r.Key[slash:], ".")]) {
			t.Errorf("%s:%d: %s: a callback row of a package outside the standard library (the analyzer reads a dependency's callbacks from its source)", r.File, r.Line, r.Key)
		}
	}
	if n[KindBlocking] < 1000 || n[KindClient] < 70 || n[KindWait] < 5 || n[KindFile] < 11 || n[KindIO] < 20 || n[KindCallback] < 25 || n[KindGo] < 2 || n[KindFinisher] < 14 || n[KindNoQuery] < 2 {
		t.Errorf("rows by kind %v: a table lost rows", n)
	}
}

// TestParseTableErrors: a malformed row is an error naming file:line and
// saying what is wrong.
func TestParseTableErrors(t *testing.T) {
	const ok = "# a comment\n\nexample.com/a.F | use: a.FContext(ctx) | evidence: a@v1 a.go:1\n"
	for _, tc := range []struct{ row, want string }{
		{"example.com/a.G use: x", `t.txt:4: "example.com/a.G use: x": want "pkg/path.Func"`},
		{"example.com/a.G | use x | evidence: e", `t.txt:4: example.com/a.G: field "use x": want one of kind, use, method, extra-args, verb, routed, request, builds, hint, joins, params, runs, serves, framework, handler, chain, evidence`},
		{"example.com/a.G | usage: x | evidence: e", `t.txt:4: example.com/a.G: field "usage: x"`},
		{"example.com/a.G | use: x | use: y | evidence: e", `t.txt:4: example.com/a.G: field "use" given twice`},
		{"example.com/a.G | use: | evidence: e", `t.txt:4: example.com/a.G: field "use" is empty`},
		{"example.com/a.G | use: x | method: G Context | evidence: e", `t.txt:4: example.com/a.G: method "G Context"`},
		{"example.com/a.G | use: x | extra-args: nil | evidence: e", `t.txt:4: example.com/a.G: extra-args without method`},
		{"example.com/a.G | use: x", `t.txt:4: example.com/a.G: no evidence field`},
		{"example.com/a.G | evidence: e", `t.txt:4: example.com/a.G: no use field`},
		{"example.com/a.G | kind: client | evidence: e", `t.txt:4: example.com/a.G: no builds field (every client row`},
		{"example.com/a.G | kind: wait | evidence: e", `t.txt:4: example.com/a.G: no hint field (every wait row`},
		{"example.com/a.G | kind: pool | builds: x", `t.txt:4: example.com/a.G: kind "pool": want one of blocking, client, wait, file, io`},
		{"example.com/a.G | builds: x | use: y", `t.txt:4: example.com/a.G: field "use" does not belong in a client row (its fields: builds, evidence)`},
		{"example.com/a.G | kind: file | hint: x", `t.txt:4: example.com/a.G: field "hint" does not belong in a file row`},
		{"example.com/a.G | use: x | routed: maybe", `t.txt:4: example.com/a.G: routed "maybe": want one of stored-receiver, oss-option, qiniu-get-input`},
		{"example.com/a.New* | use: x | evidence: e", `t.txt:4: example.com/a.New*: a key ending in * (every package-level function whose name starts so) is for client rows only`},
		{"example.com/a.(*T).New* | builds: x | evidence: e", `t.txt:4: example.com/a.(*T).New*: a key ending in *`},
		{"example.com/a.F | use: y | evidence: e", `t.txt:4: example.com/a.F is already at line 3`},
		{"example.com/a.G | kind: callback | evidence: e", `t.txt:4: example.com/a.G: no params field (every callback row`},
		{"example.com/a.G | kind: callback | params: 1,x | evidence: e", `t.txt:4: example.com/a.G: params "1,x": want parameter indexes`},
		{"example.com/a.G | kind: callback | params: -1 | evidence: e", `t.txt:4: example.com/a.G: params "-1"`},
		{"example.com/a.G | kind: callback | params: 0 | runs: twice | evidence: e", `t.txt:4: example.com/a.G: runs "twice": want once`},
		{"example.com/a.G | hint: h | joins: work | evidence: e", `t.txt:4: example.com/a.G: joins "work": want goroutines or arguments`},
		{"example.com/a.G | kind: go | params: 0 | evidence: e", `t.txt:4: example.com/a.G: field "params" does not belong in a go row (its fields: evidence)`},
		{"example.com/a.G | use: x | request: PUT | evidence: e", `t.txt:4: example.com/a.G: request "PUT": want GET, HEAD or POST`},
		{"example.com/a.G | builds: x | request: GET | evidence: e", `t.txt:4: example.com/a.G: field "request" does not belong in a client row`},
		{"example.com/a.G | use: x | joins: goroutines | evidence: e", `t.txt:4: example.com/a.G: field "joins" does not belong in a blocking row`},
	} {
		_, err := ParseTable("t.txt", ok+tc.row+"\n")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.row, err, tc.want)
		}
	}
	rows, err := ParseTable("t.txt", ok)
	if err != nil || len(rows) != 1 || rows[0].Line != 3 || rows[0].Method != "" || rows[0].Use != "a.FContext(ctx)" {
		t.Fatalf("good table: %+v, %v", rows, err)
	}
}

// TestUserRowsKnowNoTableKinds: a user's entry (ParseRow) cannot give the
// tables' own kinds and fields, and is told so in the words it was
// before they existed.
func TestUserRowsKnowNoTableKinds(t *testing.T) {
	for _, tc := range []struct{ row, want string }{
		{"example.com/a.G | kind: callback", `example.com/a.G: kind "callback": want one of blocking, client, wait, file, io, memory, noio, exit`},
		{"example.com/a.G | kind: go", `example.com/a.G: kind "go": want one of blocking, client, wait, file, io, memory, noio, exit`},
		{"example.com/a.(*Q).One | kind: finisher", `example.com/a.(*Q).One: kind "finisher": want one of blocking, client, wait, file, io, memory, noio, exit`},
		{"example.com/a.M.Describe | kind: noquery", `example.com/a.M.Describe: kind "noquery": want one of blocking, client, wait, file, io, memory, noio, exit`},
		{"example.com/a.(*G).Wait | hint: h | joins: goroutines", `example.com/a.(*G).Wait: field "joins: goroutines": want one of kind, use, method, extra-args, verb, routed, builds, hint, evidence, as "name: value"`},
		{"example.com/a.G | use: x | request: GET", `example.com/a.G: field "request: GET": want one of kind, use, method, extra-args, verb, routed, builds, hint, evidence, as "name: value"`},
		{"example.com/a.G | params: 1", `example.com/a.G: field "params: 1": want one of kind, use, method, extra-args, verb, routed, builds, hint, evidence,`},
		{"example.com/a.(*G).Wait | kind: wait | builds: x", `example.com/a.(*G).Wait: field "builds" does not belong in a wait row (its fields: hint, evidence)`},
		{"example.com/r.(*R).Get | kind: route", `example.com/r.(*R).Get: kind "route": want one of blocking, client, wait, file, io, memory, noio, exit`},
		{"example.com/r.(*R).Get | handler: 1", `example.com/r.(*R).Get: field "handler: 1": want one of kind, use, method, extra-args, verb, routed, builds, hint, evidence, as "name: value"`},
		{"example.com/r.(*R).Get | framework: r", `example.com/r.(*R).Get: field "framework: r": want one of kind, use, method, extra-args, verb, routed, builds, hint, evidence,`},
	} {
		_, err := ParseRow(tc.row)
		if err == nil || err.Error() != tc.want && !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.row, err, tc.want)
		}
	}
}

// TestRowRoundTrip: String writes a row ParseRow reads back, fields in the
// table's order, the kind only where the fields do not imply it.
func TestRowRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		kind    Kind
	}{
		{"database/sql.(*DB).Begin | evidence: go a.go:1 | verb: starts | extra-args: nil | method: BeginTx | use: db.BeginTx(ctx, nil)",
			"database/sql.(*DB).Begin | use: db.BeginTx(ctx, nil) | method: BeginTx | extra-args: nil | verb: starts | evidence: go a.go:1", KindBlocking},
		{"a/b.T.Get | routed: stored-receiver | use: x", "a/b.T.Get | use: x | routed: stored-receiver", KindBlocking},
		{"a/b.NewPool* | evidence: a@v1 p.go:3 | builds: a pool", "a/b.NewPool* | builds: a pool | evidence: a@v1 p.go:3", KindClient},
		{"a/b.NewPool | kind: client | builds: a pool", "a/b.NewPool | builds: a pool", KindClient},
		{"a/b.(*G).Wait | hint: use WaitContext", "a/b.(*G).Wait | hint: use WaitContext", KindWait},
		{"a/b.Slurp | kind: file", "a/b.Slurp | kind: file", KindFile},
		{"a/b.(*C).Send | evidence: e | kind: io", "a/b.(*C).Send | kind: io | evidence: e", KindIO},
		{"sync.(*Once).Do | runs: once | kind: callback | params: 0 | evidence: e", "sync.(*Once).Do | kind: callback | params: 0 | runs: once | evidence: e", KindCallback},
		{"a/b.(*G).Go | kind: go", "a/b.(*G).Go | kind: go", KindGo},
		{"net/http.Get | evidence: e | request: GET | use: u", "net/http.Get | use: u | request: GET | evidence: e", KindBlocking},
		{"a/b.(*Q).One | kind: finisher | evidence: e", "a/b.(*Q).One | kind: finisher | evidence: e", KindFinisher},
		{"a/b.M.Describe | kind: noquery", "a/b.M.Describe | kind: noquery", KindNoQuery},
		{"a/b.(*G).Wait | joins: arguments | hint: h", "a/b.(*G).Wait | hint: h | joins: arguments", KindWait},
	} {
		r, err := parseRow(tc.in, true)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := r.String(); got != tc.out || r.Kind != tc.kind {
			t.Errorf("%q: String() = %q, kind %s; want %q, %s", tc.in, got, r.Kind, tc.out, tc.kind)
		}
		if back, err := parseRow(r.String(), true); err != nil || back != r {
			t.Errorf("%q: read back as %+v, %v", r.String(), back, err)
		}
	}
}

// TestMatchPattern: a pattern row matches the package-level functions of
// its package whose name starts so, and no other package and no shorter
// name.
func TestMatchPattern(t *testing.T) {
	table := map[string]string{"example.com/az.NewClient*": "a client", "gopkg.in/az.v2.New*": "a v2 client"}
	for _, tc := range []struct{ path, name, want string }{
		{"example.com/az", "NewClient", "example.com/az.NewClient*"},
		{"example.com/az", "NewClientFromString", "example.com/az.NewClient*"},
		{"gopkg.in/az.v2", "NewX", "gopkg.in/az.v2.New*"},
		{"example.com/az", "NewClien", ""},
		{"example.com/az/container", "NewClient", ""},
		{"example.com/azx", "NewClient", ""},
	} {
		got, ok := MatchPattern(table, tc.path, tc.name)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("MatchPattern(%q, %q) = %q, %v; want %q", tc.path, tc.name, got, ok, tc.want)
		}
	}
}

// BenchmarkParseBuiltin is the start-up cost of the table (paid once per
// process, by BuiltinRows).
func BenchmarkParseBuiltin(b *testing.B) {
	for b.Loop() {
		if _, err := ParseTable(BlockingFile, blockingTable); err != nil {
			b.Fatal(err)
		}
		if _, err := ParseTable(CallsFile, callsTable); err != nil {
			b.Fatal(err)
		}
	}
}

// TestQueryRows: the finisher and noquery rows build their accessors'
// maps (a row of another receiver panics there): dbx's finishers by
// receiver type, gorm's Migrator methods that run no query.
func TestQueryRows(t *testing.T) {
	fin := dbxFinishers()
	if len(fin) != 3 || len(fin["Query"]) != 6 || len(fin["SelectQuery"]) != 5 || len(fin["ModelQuery"]) != 3 {
		t.Errorf("dbxFinishers() = %v: want Query's 6, SelectQuery's 5 and ModelQuery's 3 finishers", fin)
	}
	if pure := gormMigratorPure(); len(pure) != 2 || !pure["FullDataTypeOf"] || !pure["GetTypeAliases"] {
		t.Errorf("gormMigratorPure() = %v: want FullDataTypeOf and GetTypeAliases", pure)
	}
}

// TestHTTPShortcuts: the blocking rows with a request field are net/http's
// Get, Head and Post, package-level and on *Client.
func TestHTTPShortcuts(t *testing.T) {
	want := map[string]string{
		"net/http.Get": "http.MethodGet", "net/http.Head": "http.MethodHead", "net/http.Post": "http.MethodPost",
		"net/http.(*Client).Get": "http.MethodGet", "net/http.(*Client).Head": "http.MethodHead", "net/http.(*Client).Post": "http.MethodPost",
	}
	if got := HTTPShortcuts(); !maps.Equal(got, want) {
		t.Errorf("HTTPShortcuts() = %v, want %v", got, want)
	}
}
