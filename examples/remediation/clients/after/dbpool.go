package after

import (
	"database/sql"
	"time"
)

// pathIdleTimeout is the shortest idle cut-off on the network path to the
// database: a load balancer, NAT gateway or proxy that drops a connection
// idle for longer, usually without telling either end. Azure Load
// Balancer's default is 4 minutes, AWS NLB's is 350 s; set yours.
const pathIdleTimeout = 4 * time.Minute

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
	// Close a connection idle for longer than the path keeps one, so that
	// no query meets a connection the load balancer has already dropped (it
	// would fail, or wait for TCP to give up); this also gives back what a
	// burst opened once the service is quiet again. Below the cut-off,
	// with a margin: database/sql closes idle connections in the
	// background, up to a second late.
	db.SetConnMaxIdleTime(pathIdleTimeout * 3 / 4)
	// Replace every connection now and then, busy or idle, so that a
	// failover, a DNS change or a new replica is picked up. This is not
	// the idle setting: a connection in use every few seconds is never
	// idle long enough to be cut off, and lives this long.
	db.SetConnMaxLifetime(30 * time.Minute)
}
