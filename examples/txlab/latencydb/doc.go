// Package latencydb is a database/sql driver that models a remote database
// for the transaction lab: every statement, Begin and Commit costs one round
// trip of a fixed latency, and a connection does one thing at a time. It
// keeps only what the lab's order service needs (an outbox queue), matched
// by statement prefix, because what the lab measures is database/sql's own
// connection pool (sql.DBStats), not a query engine.
package latencydb
