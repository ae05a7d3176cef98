// Package data builds the cache: the library's in-memory one.
package data

import (
	"example.com/kv"
	"example.com/kv/memory"
)

func NewCache() kv.Cache { return memory.NewCache() }
