// want package:`pending\(9\)` package:`holds\(7\)` package:`joined\(6\)`

// Package storedset: calls through fields of one interface dispatch to
// the types stored into each field (issue 35, "dispatch by what is
// stored"), across packages.
package storedset

import (
	"net/http"

	"prec/storedset/dep"
	"prec/storedset/fs"
	"prec/storedset/setting"
)

var d = dep.New(true)

// The KV field may hold the Redis store: reported.
func KV(w http.ResponseWriter, r *http.Request) {
	d.KV().Get("k") // want `^KV calls d\.KV\(\)\.Get \(cache\.Driver, bound to \*cache\.RedisStore in dep\.New\) → cache\.\(\*RedisStore\)\.Get → github\.com/gomodule/redigo/redis\.\(\*Pool\)\.Get, .*\(SIO001\)$`
}

// The state field only ever holds the in-memory store: nothing to report.
func State(w http.ResponseWriter, r *http.Request) {
	d.StateKV().Get("k")
}

// The state store handed to another package's constructor, kept in its
// field and called there: still only the in-memory store.
func Lookup(w http.ResponseWriter, r *http.Request) {
	fs.NewFS(d.StateKV()).Lookup("k")
}

// The loose field holds the in-memory store and a value of unseen type:
// every binding is followed, and the Redis one says it was not seen
// stored there.
func Loose(w http.ResponseWriter, r *http.Request) {
	d.Loose().Get("k") // want `^Loose calls d\.Loose\(\)\.Get \(cache\.Driver, bound to \*cache\.RedisStore in dep\.New; not seen stored there\) → cache\.\(\*RedisStore\)\.Get → .*\(SIO001\)$`
}

var settings = setting.NewProvider(setting.NewEnv(setting.NewStatic(setting.NewKV(d.KV()))))

// Five interface calls deep, each link holding one type: the Redis store
// at the end is reached.
func Site(w http.ResponseWriter, r *http.Request) {
	_ = settings.SiteName() // want `^Site calls settings\.SiteName \(setting\.Provider, bound to \*setting\.provider in setting\.NewProvider\) → setting\.\(\*provider\)\.SiteName → p\.chain\.Get \(setting\.Adapter, bound to \*setting\.env in setting\.NewEnv\) → setting\.\(\*env\)\.Get → e\.next\.Get \(setting\.Adapter, bound to \*setting\.static in setting\.NewStatic\) → setting\.\(\*static\)\.Get → s\.next\.Get \(setting\.Adapter, bound to \*setting\.kv in setting\.NewKV\) → setting\.\(\*kv\)\.Get → k\.kv\.Get \(cache\.Driver, bound to \*cache\.RedisStore in dep\.New\) → cache\.\(\*RedisStore\)\.Get → github\.com/gomodule/redigo/redis\.\(\*Pool\)\.Get, .*\(SIO001\)$`
}
