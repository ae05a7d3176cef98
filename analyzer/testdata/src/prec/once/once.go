// Package once: a client built, or a wait made, in a function that runs
// once per process (sync.Once.Do, a hand-written memoiser like
// navidrome's singleton.GetInstance) is not per request; the same in a
// helper that calls its function every time is.
package once

import (
	"database/sql"
	"net/http"
	"reflect"
	"sync"
)

var (
	clientOnce sync.Once
	client     *http.Client
	ready      = make(chan struct{})
)

func sharedClient() *http.Client { // want sharedClient:`^io\(channel receive\)$`
	clientOnce.Do(func() {
		client = &http.Client{Transport: &http.Transport{}}
		<-ready
	})
	return client
}

var (
	mu        sync.RWMutex
	instances = map[string]any{}
	building  = map[string]chan struct{}{}
)

// instance keeps one value per type: it calls build only on a miss, and
// a caller that finds another one building waits for it.
func instance[T any](build func() T) T { // want instance:`^io\(channel receive\)$` instance:`^calls\(0\)$` instance:`^memo\(0\)$`
	var zero T
	key := reflect.TypeOf(zero).String()
	mu.Lock()
	if v, ok := instances[key]; ok {
		mu.Unlock()
		return v.(T)
	}
	done, busy := building[key]
	if !busy {
		done = make(chan struct{})
		building[key] = done
	}
	mu.Unlock()
	if busy {
		<-done
		mu.RLock()
		defer mu.RUnlock()
		return instances[key].(T)
	}
	v := build()
	mu.Lock()
	instances[key] = v
	close(done)
	delete(building, key)
	mu.Unlock()
	return v
}

func Db() *sql.DB { // want Db:`^io\(once.instance → channel receive\)$`
	return instance(func() *sql.DB {
		db, _ := sql.Open("postgres", "")
		return db
	})
}

// locked calls build under a lock every time: no memoiser.
func locked[T any](build func() T) T { // want locked:`^calls\(0\)$`
	mu.Lock()
	defer mu.Unlock()
	return build()
}

func fresh() *sql.DB { // want fresh:`^blocks\(SIO004: database/sql.Open\)$`
	return locked(func() *sql.DB {
		db, _ := sql.Open("postgres", "")
		return db
	})
}

func Silent(w http.ResponseWriter, r *http.Request) {
	_ = sharedClient()
	_ = Db()
}

func PerRequest(w http.ResponseWriter, r *http.Request) {
	_ = fresh() // want `calls once.fresh → database/sql.Open, which builds a database connection pool on every request.*\(SIO004\)$`
	var once sync.Once
	once.Do(func() {
		_, _ = http.Get("http://example.com") // want `net/http.Get.*\(SIO001\)$`
	})
}
