// Package after is ../before with the payment call out of the
// transaction: the handler writes the order and an outbox row in one short
// transaction, and Workers started at start-up make the call. A worker
// claims the oldest due row with a lease, charges it under a deadline with
// an idempotency key, and retries with jittered exponential backoff up to a
// terminal dead state. SQLStore is the PostgreSQL outbox (not run by the
// tests: no driver in this module); MemStore, with the same claim
// semantics, is what the tests run the worker against. syncio reports
// nothing.
package after
