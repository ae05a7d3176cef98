package knowledge

import (
	"strings"
	"testing"
)

// TestBuiltinBlockingParses: the embedded table parses, so the analyzer's
// start-up (which panics on a bad embedded row) cannot fail in a release.
func TestBuiltinBlockingParses(t *testing.T) {
	rows, err := BuiltinBlocking()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 1000 {
		t.Errorf("%d rows: the table lost most of its SDK rows", len(rows))
	}
	for _, r := range rows {
		if r.Line == 0 || r.Use == "" || r.Evidence == "" {
			t.Errorf("row %+v: no line, use or evidence", r)
		}
	}
}

// TestParseTableErrors: a malformed row is an error naming file:line and
// saying what is wrong.
func TestParseTableErrors(t *testing.T) {
	const ok = "# a comment\n\nexample.com/a.F | use: a.FContext(ctx) | evidence: a@v1 a.go:1\n"
	for _, tc := range []struct{ row, want string }{
		{"example.com/a.G use: x", `t.txt:4: "example.com/a.G use: x": want "pkg/path.Func"`},
		{"example.com/a.G | use x | evidence: e", `t.txt:4: example.com/a.G: field "use x": want one of use, method, extra-args, verb, evidence`},
		{"example.com/a.G | usage: x | evidence: e", `t.txt:4: example.com/a.G: field "usage: x"`},
		{"example.com/a.G | use: x | use: y | evidence: e", `t.txt:4: example.com/a.G: field "use" given twice`},
		{"example.com/a.G | use: | evidence: e", `t.txt:4: example.com/a.G: field "use" is empty`},
		{"example.com/a.G | use: x | method: G Context | evidence: e", `t.txt:4: example.com/a.G: method "G Context"`},
		{"example.com/a.G | use: x | extra-args: nil | evidence: e", `t.txt:4: example.com/a.G: extra-args without method`},
		{"example.com/a.G | use: x", `t.txt:4: example.com/a.G: no evidence field`},
		{"example.com/a.G | evidence: e", `t.txt:4: example.com/a.G: no use field`},
		{"example.com/a.F | use: y | evidence: e", `t.txt:4: example.com/a.F is already at line 3`},
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

// TestRowRoundTrip: String writes a row ParseRow reads back, fields in the
// table's order.
func TestRowRoundTrip(t *testing.T) {
	const s = "database/sql.(*DB).Begin | use: db.BeginTx(ctx, nil) | method: BeginTx | extra-args: nil | verb: starts | evidence: go a.go:1"
	b, err := ParseRow("database/sql.(*DB).Begin | evidence: go a.go:1 | verb: starts | extra-args: nil | method: BeginTx | use: db.BeginTx(ctx, nil)")
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != s {
		t.Errorf("String() = %q, want %q", got, s)
	}
}

// BenchmarkParseBuiltin is the start-up cost of the table (paid once per
// process, by BuiltinBlocking).
func BenchmarkParseBuiltin(b *testing.B) {
	for b.Loop() {
		if _, err := ParseTable(BlockingFile, blockingTable); err != nil {
			b.Fatal(err)
		}
	}
}
