// want package:`convs\(3\)`

// Package dep is a dependency container, as Cloudreve's
// application/dependency: one field holds Redis or memory by
// configuration, another only ever memory, a third is set from a value
// whose type the analysis cannot see.
package dep

import "prec/storedset/cache"

// Dep is what handlers are given.
type Dep interface {
	KV() cache.Driver
	StateKV() cache.Driver
	Loose() cache.Driver
}

type container struct {
	kv      cache.Driver
	stateKv cache.Driver
	loose   cache.Driver
}

func New(redis bool) Dep {
	c := &container{loose: cache.NewMemoStore()}
	c.stateKv, _ = newState()
	if redis {
		c.kv = cache.NewRedisStore()
	} else {
		c.kv = cache.NewMemoStore()
	}
	return c
}

// newState hands on a constructor's results: its store is of the
// constructor's concrete result type.
func newState() (cache.Driver, error) { return cache.OpenMemo() }

func (c *container) KV() cache.Driver { return c.kv }

func (c *container) StateKV() cache.Driver { return c.stateKv }

func (c *container) Loose() cache.Driver { return c.loose }

// Adopt stores a value asserted from any: what it holds is not seen.
func (c *container) Adopt(v any) {
	c.loose = v.(cache.Driver)
}
