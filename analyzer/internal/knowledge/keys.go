package knowledge

import (
	"fmt"
	"strings"
)

// KeySyntax is what a call key looks like, for error messages.
const KeySyntax = `want "pkg/path.Func", "pkg/path.(*Type).Method" or "pkg/path.Type.Method"`

// ParseKey checks a function name in the analyzer's key syntax (an import
// path, then ".Func", ".(*Type).Method" or ".Type.Method") and returns it
// trimmed.
func ParseKey(s string) (string, error) {
	key := strings.TrimSpace(s)
	slash := strings.LastIndex(key, "/")
	last := key[slash+1:]
	dot := strings.Index(last, ".")
	if key == "" || strings.ContainsAny(key, " \t=,|") || dot <= 0 {
		return "", fmt.Errorf("%q: %s", s, KeySyntax)
	}
	rest := last[dot+1:]
	var parts []string
	if strings.HasPrefix(rest, "(*") {
		typ, method, ok := strings.Cut(rest[2:], ").")
		if !ok {
			return "", fmt.Errorf("%q: %s", s, KeySyntax)
		}
		parts = []string{typ, method}
	} else {
		parts = strings.Split(rest, ".")
	}
	if len(parts) > 2 {
		return "", fmt.Errorf("%q: %s", s, KeySyntax)
	}
	for _, p := range parts {
		if !IsIdent(p) {
			return "", fmt.Errorf("%q: %s", s, KeySyntax)
		}
	}
	return key, nil
}

// IsIdent reports whether s is a Go identifier.
func IsIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r > 127
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}
