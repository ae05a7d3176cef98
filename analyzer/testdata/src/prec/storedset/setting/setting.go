// want package:`convs\(4\)`

// Package setting reads settings through a chain of adapters, each
// keeping the next in a field, the last over the key-value store, as
// Cloudreve's pkg/setting: every link holds one type, so following it
// counts as no interface hop, and the store at the end is reached.
package setting

import "prec/storedset/cache"

type Adapter interface{ Get(name string) any }

type Provider interface{ SiteName() string }

type provider struct{ chain Adapter }

func NewProvider(chain Adapter) Provider { return &provider{chain: chain} }

func (p *provider) SiteName() string { // want SiteName:`^dyn\(p.chain.Get\)$`
	v, _ := p.chain.Get("site_name").(string)
	return v
}

// env, then static defaults, then the store.
type env struct{ next Adapter }

func NewEnv(next Adapter) Adapter { return &env{next: next} }

func (e *env) Get(name string) any { return e.next.Get(name) } // want Get:`^dyn\(e.next.Get\)$`

type static struct{ next Adapter }

func NewStatic(next Adapter) Adapter { return &static{next: next} }

func (s *static) Get(name string) any { return s.next.Get(name) } // want Get:`^dyn\(s.next.Get\)$`

type kv struct{ kv cache.Driver }

func NewKV(d cache.Driver) Adapter { return &kv{kv: d} }

func (k *kv) Get(name string) any { // want Get:`^dyn\(k.kv.Get\)$`
	v, _ := k.kv.Get(name)
	return v
}
