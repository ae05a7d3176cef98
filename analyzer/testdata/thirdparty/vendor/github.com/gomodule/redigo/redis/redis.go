// Package redis reduces redigo's pool: a pooled connection's Close flushes
// through the library's own Conn interface, which is the library's
// implementation, not a caller's round trip.
package redis

type Conn interface {
	Close() error
	Do(commandName string, args ...interface{}) (reply interface{}, err error)
}

type conn struct{}

func (conn) Close() error { return nil }

func (conn) Do(string, ...interface{}) (interface{}, error) { return nil, nil }

type activeConn struct{ c Conn }

// Close returns the connection to the pool after an empty flush.
func (ac *activeConn) Close() error {
	_, err := ac.c.Do("")
	return err
}

func (ac *activeConn) Do(cmd string, args ...interface{}) (interface{}, error) {
	return ac.c.Do(cmd, args...)
}

type Pool struct{}

func (p *Pool) Get() Conn { return &activeConn{c: conn{}} }
