// Package after is ../before with the payment call out of the
// transaction: the handler writes the order and an outbox row in one short
// transaction, and a worker started at start-up makes the call. syncio
// reports nothing.
package after
