package knowledge

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// KindsFile names the embedded kinds table in error messages and docs.
const KindsFile = "analyzer/internal/knowledge/kinds.txt"

//go:embed kinds.txt
var kindsTable string

// OpKind says what a blocking operation waits on. The zero OpKind is an
// operation the table does not classify (a project function given
// context.Background(), a user's own blocking row).
type OpKind uint8

// The kinds of kinds.txt.
const (
	OpUnknown OpKind = iota
	OpRemote
	OpWait
	OpStore
	OpLocal
	// OpMemory is no wait: a context handed to an in-memory library
	// (a memory row of calls.txt), which only the callbacks the program
	// registers there could use. The analyzer marks SIO002 operations so,
	// and drops them where the program registers none.
	OpMemory
)

var opKindNames = map[string]OpKind{"remote": OpRemote, "wait": OpWait, "store": OpStore, "local": OpLocal, "memory": OpMemory}

// String is the kind's name in kinds.txt, or "unknown".
func (k OpKind) String() string {
	for name, v := range opKindNames {
		if v == k {
			return name
		}
	}
	return "unknown"
}

// Order is the kind's place among a finding's operations, lowest first:
// remote calls and waits on work done elsewhere, then databases and
// caches, then what the table does not classify, then local work. A
// request spends longest, and least predictably, on what another machine
// or another goroutine decides; a local file or process is the cheapest
// to find once the finding names its path.
func (k OpKind) Order() int {
	switch k {
	case OpRemote, OpWait:
		return 0
	case OpStore:
		return 1
	case OpLocal:
		return 3
	case OpMemory:
		return 4
	}
	return 2
}

// ParseKinds parses a kinds table: "kind | prefix" per line, blank lines
// and lines starting with "#" skipped. Errors name file:line.
func ParseKinds(file, data string) (map[string]OpKind, error) {
	out := map[string]OpKind{}
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, prefix, ok := strings.Cut(line, "|")
		name, prefix = strings.TrimSpace(name), strings.TrimSpace(prefix)
		k, known := opKindNames[name]
		switch {
		case !ok || prefix == "":
			return nil, fmt.Errorf("%s:%d: want \"kind | prefix\", got %q", file, i+1, line)
		case !known:
			return nil, fmt.Errorf("%s:%d: kind %q: want remote, wait, store or local", file, i+1, name)
		}
		if _, dup := out[prefix]; dup {
			return nil, fmt.Errorf("%s:%d: prefix %q given twice", file, i+1, prefix)
		}
		out[prefix] = k
	}
	return out, nil
}

var builtinKinds = sync.OnceValue(func() map[string]OpKind {
	m, err := ParseKinds(KindsFile, kindsTable)
	if err != nil {
		panic(err) // the embedded table is checked by TestKindsTable
	}
	return m
})

// OpKindOf returns the kind of the operation keyed key (a blocking.txt key,
// or an operation's name): the kind of the longest matching prefix.
func OpKindOf(key string) OpKind {
	best, kind := -1, OpUnknown
	for prefix, k := range builtinKinds() {
		if len(prefix) > best && strings.HasPrefix(key, prefix) {
			best, kind = len(prefix), k
		}
	}
	return kind
}
