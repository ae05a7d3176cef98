// Package gredis reduces eddycjy/go-gin-example's pkg/gredis: helpers that
// take a pooled redigo connection and call Conn.Do (FN3 in
// docs/precision.md).
package gredis

import "github.com/gomodule/redigo/redis"

var pool = &redis.Pool{}

// Exists asks Redis whether key exists.
func Exists(key string) bool { // want Exists:`^blocks\(SIO001: github.com/gomodule/redigo/redis.\(\*Pool\).Get\) \+ dyn\(conn.Close\) \+ blocks\(SIO001: github.com/gomodule/redigo/redis.Conn.Do\)$`
	conn := pool.Get()
	defer conn.Close()
	n, _ := conn.Do("EXISTS", key)
	return n != nil
}

// Queue only buffers commands: Send is no finding.
func Queue(conn redis.Conn, key string) error { // want Queue:`^dyn\(conn.Send\)$`
	return conn.Send("GET", key)
}
