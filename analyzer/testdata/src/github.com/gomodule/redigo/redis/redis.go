// Package redis is a fake of github.com/gomodule/redigo/redis: the
// interfaces and package functions syncio knows, no network.
package redis

import "context"

// Conn is a connection to a Redis server.
type Conn interface {
	Close() error
	Do(commandName string, args ...interface{}) (reply interface{}, err error)
	Send(commandName string, args ...interface{}) error
	Flush() error
	Receive() (reply interface{}, err error)
}

// ConnWithContext embeds Conn, as in redigo v1.9.
type ConnWithContext interface {
	Conn
	DoContext(ctx context.Context, commandName string, args ...interface{}) (reply interface{}, err error)
}

// Pool hands out connections.
type Pool struct{}

// Get returns a connection.
func (p *Pool) Get() Conn { return nil }

// DoContext sends a command under ctx.
func DoContext(c Conn, ctx context.Context, cmd string, args ...interface{}) (interface{}, error) {
	return nil, ctx.Err()
}
