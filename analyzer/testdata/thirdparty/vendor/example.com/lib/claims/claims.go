// Package claims reduces go-chi/jwtauth's FromContext over jwx's Token.
package claims

import "context"

// Token copies its claims into a map; ctx is not used for I/O.
type Token interface {
	AsMap(ctx context.Context) (map[string]any, error)
}

type key struct{}

// FromContext gives an interface method context.Background(): no evidence
// of I/O, so no SIO002.
func FromContext(ctx context.Context) map[string]any {
	t, _ := ctx.Value(key{}).(Token)
	if t == nil {
		return nil
	}
	m, _ := t.AsMap(context.Background())
	return m
}
