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

// Kind says what a blocking operation waits on. The zero Kind is an
// operation the table does not classify (a project function given
// context.Background(), a user's own blocking row).
type Kind uint8

// The kinds of kinds.txt.
const (
	KindUnknown Kind = iota
	KindRemote
	KindWait
	KindStore
	KindLocal
)

var kindNames = map[string]Kind{"remote": KindRemote, "wait": KindWait, "store": KindStore, "local": KindLocal}

// String is the kind's name in kinds.txt, or "unknown".
func (k Kind) String() string {
	for name, v := range kindNames {
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
func (k Kind) Order() int {
	switch k {
	case KindRemote, KindWait:
		return 0
	case KindStore:
		return 1
	case KindLocal:
		return 3
	}
	return 2
}

// ParseKinds parses a kinds table: "kind | prefix" per line, blank lines
// and lines starting with "#" skipped. Errors name file:line.
func ParseKinds(file, data string) (map[string]Kind, error) {
	out := map[string]Kind{}
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, prefix, ok := strings.Cut(line, "|")
		name, prefix = strings.TrimSpace(name), strings.TrimSpace(prefix)
		k, known := kindNames[name]
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

var builtinKinds = sync.OnceValue(func() map[string]Kind {
	m, err := ParseKinds(KindsFile, kindsTable)
	if err != nil {
		panic(err) // the embedded table is checked by TestKindsTable
	}
	return m
})

// KindOf returns the kind of the operation keyed key (a blocking.txt key,
// or an operation's name): the kind of the longest matching prefix.
func KindOf(key string) Kind {
	best, kind := -1, KindUnknown
	for prefix, k := range builtinKinds() {
		if len(prefix) > best && strings.HasPrefix(key, prefix) {
			best, kind = len(prefix), k
		}
	}
	return kind
}
