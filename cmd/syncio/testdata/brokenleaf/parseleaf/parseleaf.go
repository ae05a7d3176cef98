// Package parseleaf has a syntax error; api imports it.
package parseleaf

import "net"

// Dial connects without a context: api's handler reaches it.
func Dial() (net.Conn, error) { return net.Dial("tcp", "example.com:80") }

func broken() int { return 1 + } // syntax error
