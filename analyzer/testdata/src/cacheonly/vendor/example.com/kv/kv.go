// Package kv is a reduced segmentfault/pacman cache: the Cache interface
// its users program against.
package kv

import "context"

type Cache interface {
	GetString(ctx context.Context, key string) (string, bool, error)
}
