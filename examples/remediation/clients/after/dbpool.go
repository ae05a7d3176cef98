package after

import (
	"database/sql"
	"time"
)

// ConfigurePool sizes db's connection pool for a service that runs up to
// maxOpen queries at once. Call it once, next to sql.Open.
func ConfigurePool(db *sql.DB, maxOpen int) {
	// The cap, and so the queue: a query that finds maxOpen connections
	// busy waits for one (go_sql_wait_count_total). Size it from the
	// database's connection limit shared among the service's replicas, and
	// by Little's law: queries a second × their duration.
	db.SetMaxOpenConns(maxOpen)
	// The default keeps 2 idle connections: with more than 2 queries at
	// once, every connection above 2 is closed when it is released and
	// dialled again for the next query (go_sql_max_idle_closed_total).
	// Keep as many as may be open.
	db.SetMaxIdleConns(maxOpen)
	// Give back what a burst opened once the service is quiet again.
	db.SetConnMaxIdleTime(5 * time.Minute)
	// Replace connections now and then, so that a failover, a DNS change
	// or a new replica is picked up; keep it below any proxy's or load
	// balancer's idle cut-off, so that no query meets a connection it has
	// already dropped.
	db.SetConnMaxLifetime(30 * time.Minute)
}
