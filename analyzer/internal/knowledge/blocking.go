package knowledge

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// BlockingFile names the embedded SIO001 table in error messages and
// docs: the path of blocking.txt in the repository.
const BlockingFile = "analyzer/internal/knowledge/blocking.txt"

//go:embed blocking.txt
var blockingTable string

// Blocking is one row of the SIO001 table: a context-less call and what
// to use instead. The fields are those of analyzer.Replacement, plus where
// the row came from.
type Blocking struct {
	// Key names the call: "pkg/path.Func", "pkg/path.(*Type).Method" or
	// "pkg/path.Type.Method" (Type may be an interface).
	Key string
	// Use is the replacement, shown after "use " in the message.
	Use string
	// Verb replaces the message's default "blocks without the request
	// context" wording.
	Verb string
	// Method is the context-aware method or function taking ctx first; it
	// turns on the suggested fix (rename, insert ctx).
	Method string
	// ExtraArgs follow ctx in the fix ("nil" for Begin → BeginTx(ctx, nil)).
	ExtraArgs string
	// Evidence says why the row holds: the module version read and the
	// file:line that does the I/O (docs/rules/libraries.md tells the story).
	Evidence string
	// Line is the row's line in the file it was read from (0 for a row
	// given on its own, as in a configuration entry).
	Line int
}

// Field names of a row, in the order the table writes them.
const (
	FieldUse       = "use"
	FieldMethod    = "method"
	FieldExtraArgs = "extra-args"
	FieldVerb      = "verb"
	FieldEvidence  = "evidence"
)

var fieldNames = []string{FieldUse, FieldMethod, FieldExtraArgs, FieldVerb, FieldEvidence}

// RowSyntax is what a row looks like, for error messages.
const RowSyntax = `want "pkg/path.Func | use: replacement", optionally followed by "| method: Name", "| extra-args: nil", "| verb: text", "| evidence: text"`

// ParseRow parses one row of the table's format:
//
//	key | use: text | method: Name | extra-args: text | verb: text | evidence: text
//
// Only the key is required here; the fields may come in any order, each
// once. A value may not contain "|".
func ParseRow(s string) (Blocking, error) {
	parts := strings.Split(s, "|")
	key, err := ParseKey(parts[0])
	if err != nil {
		return Blocking{}, err
	}
	b := Blocking{Key: key}
	seen := map[string]bool{}
	for _, p := range parts[1:] {
		name, val, ok := strings.Cut(p, ":")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		field := b.field(name)
		switch {
		case !ok || field == nil:
			return Blocking{}, fmt.Errorf("%s: field %q: want one of %s, as \"name: value\"", key, strings.TrimSpace(p), strings.Join(fieldNames, ", "))
		case seen[name]:
			return Blocking{}, fmt.Errorf("%s: field %q given twice", key, name)
		case val == "":
			return Blocking{}, fmt.Errorf("%s: field %q is empty", key, name)
		}
		seen[name] = true
		*field = val
	}
	if b.Method != "" && !IsIdent(b.Method) {
		return Blocking{}, fmt.Errorf("%s: method %q: want the name of the context-aware method or function, e.g. QueryContext", key, b.Method)
	}
	if b.ExtraArgs != "" && b.Method == "" {
		return Blocking{}, fmt.Errorf("%s: extra-args without method: the arguments follow ctx in the fix, which needs the method", key)
	}
	return b, nil
}

func (b *Blocking) field(name string) *string {
	switch name {
	case FieldUse:
		return &b.Use
	case FieldMethod:
		return &b.Method
	case FieldExtraArgs:
		return &b.ExtraArgs
	case FieldVerb:
		return &b.Verb
	case FieldEvidence:
		return &b.Evidence
	}
	return nil
}

// ParseTable parses a table: one row per line (ParseRow), blank lines and
// lines starting with "#" skipped. Every row must have a use and an
// evidence field, and no key may repeat. Errors name file:line.
func ParseTable(file, data string) ([]Blocking, error) {
	var rows []Blocking
	first := map[string]int{}
	for i, line := range strings.Split(data, "\n") {
		n := i + 1
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		b, err := ParseRow(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w; %s", file, n, err, RowSyntax)
		}
		for _, f := range [...]struct{ name, val string }{{FieldUse, b.Use}, {FieldEvidence, b.Evidence}} {
			if f.val == "" {
				return nil, fmt.Errorf("%s:%d: %s: no %s field (every row of the table needs one)", file, n, b.Key, f.name)
			}
		}
		if at, dup := first[b.Key]; dup {
			return nil, fmt.Errorf("%s:%d: %s is already at line %d", file, n, b.Key, at)
		}
		first[b.Key] = n
		b.Line = n
		rows = append(rows, b)
	}
	return rows, nil
}

// BuiltinBlocking returns the embedded SIO001 table, parsed on first use.
// The rows are shared: callers copy what they change.
var BuiltinBlocking = sync.OnceValues(func() ([]Blocking, error) {
	return ParseTable(BlockingFile, blockingTable)
})

// String renders b as a row of the table, fields in the table's order.
func (b Blocking) String() string {
	var sb strings.Builder
	sb.WriteString(b.Key)
	for _, name := range fieldNames {
		if v := *b.field(name); v != "" {
			sb.WriteString(" | " + name + ": " + v)
		}
	}
	return sb.String()
}
