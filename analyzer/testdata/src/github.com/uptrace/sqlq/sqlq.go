// Package sqlq reduces a query builder whose path has "trace" inside an
// element (github.com/uptrace/bun): its queries run through a connection
// interface that the analysis does not dispatch, so Scan may do I/O with
// the context it is given.
package sqlq

import "context"

type Conn interface {
	QueryContext(ctx context.Context, query string) error
}

type Query struct{ conn Conn }

func (q *Query) Scan(ctx context.Context) error { // want Scan:`opaque`
	return q.conn.QueryContext(ctx, "SELECT 1")
}
