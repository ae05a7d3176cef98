// Package model declares the store the handlers use; it imports none of
// its implementations.
package model

type DataStore interface {
	WithTx(block func(tx DataStore) error) error
	WithTxImmediate(block func(tx DataStore) error) error
	// OnCommit keeps block for later; Background starts it with go.
	OnCommit(block func(tx DataStore) error) error
	Background(block func(tx DataStore) error) error
	// Enqueue posts a job and keeps block for when it is done.
	Enqueue(block func(tx DataStore) error) error
}
