// want package:`pending\(5\)` package:`convs\(1\)` package:`joined\(2\)`
// Package cache calls redigo through its interfaces, directly and through
// a helper package.
package cache

import (
	"net/http"

	"github.com/gomodule/redigo/redis"

	"cache/gredis"
)

var pool = &redis.Pool{}

func Direct(w http.ResponseWriter, r *http.Request) {
	conn := pool.Get() // want `^github.com/gomodule/redigo/redis.\(\*Pool\).Get takes a pooled Redis connection .* the request cannot cancel; use conn, err := pool.GetContext\(ctx\).*\(SIO001\)$`
	defer conn.Close()
	_, _ = conn.Do("GET", "k") // want `^github.com/gomodule/redigo/redis.Conn.Do does a Redis round trip the request cannot cancel; use redis.DoContext\(conn, ctx, cmd, args...\).*\(SIO001\)$`
	_ = conn.Send("GET", "k")
	_, _ = conn.Receive() // want `^github.com/gomodule/redigo/redis.Conn.Receive waits for a Redis reply the request cannot cancel;.*\(SIO001\)$`
	_, _ = redis.DoContext(conn, r.Context(), "GET", "k")
}

// Embedded calls Do through an interface that embeds Conn: the same method.
func Embedded(w http.ResponseWriter, r *http.Request) {
	c, _ := pool.Get().(redis.ConnWithContext)  // want `redis.\(\*Pool\).Get takes a pooled Redis connection`
	_, _ = c.Do("GET", "k")                     // want `redis.Conn.Do does a Redis round trip`
	_, _ = c.DoContext(r.Context(), "GET", "k") // a ctx-aware interface method: no finding
	_ = gredis.Queue(c, "k")
}

func Helper(w http.ResponseWriter, r *http.Request) {
	_ = gredis.Exists("k") // want `^Helper calls gredis.Exists → github.com/gomodule/redigo/redis.\(\*Pool\).Get, which takes a pooled Redis connection.*also reaches gredis.Exists → github.com/gomodule/redigo/redis.Conn.Do at gredis.go:14:10 \(SIO001\)$`
}
