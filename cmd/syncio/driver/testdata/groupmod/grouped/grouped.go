// Package grouped has three handlers that reach one blocking call through
// a helper, and one that makes the call itself.
package grouped

func block() {}

func fetch() {
	block() // cause
}

func A() { fetch() }

func B() { fetch() }

func C() { fetch() }

func D() {
	block() // own
}
