// Package before is an order service whose handler holds a database
// transaction open while it calls the payment service: every slow payment
// keeps a pooled connection (and the order's row locks) busy, and under
// load the pool drains. The call is context-aware, so only SIO007 is
// reported. See ../after for the fix.
package before
