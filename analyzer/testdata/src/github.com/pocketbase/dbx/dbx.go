// Package dbx stands in for github.com/pocketbase/dbx v1.12.0: a query
// carries the context its chain was given, and its finishers take the
// …Context branch only when it has one (query.go:229-240, :335-346).
package dbx

import (
	"context"
	"database/sql"
)

type Params map[string]any

type Builder interface {
	NewQuery(sql string) *Query
	Select(cols ...string) *SelectQuery
}

type DB struct {
	sqlDB *sql.DB
	ctx   context.Context
}

func NewFromDB(db *sql.DB) *DB { return &DB{sqlDB: db} }

func (db *DB) WithContext(ctx context.Context) *DB {
	db2 := *db
	db2.ctx = ctx
	return &db2
}

func (db *DB) NewQuery(s string) *Query { return &Query{db: db.sqlDB, sql: s, ctx: db.ctx} }

func (db *DB) Select(cols ...string) *SelectQuery {
	return &SelectQuery{builder: db, ctx: db.ctx}
}

type Query struct {
	db  *sql.DB
	sql string
	ctx context.Context
}

func (q *Query) Bind(p Params) *Query { return q }

func (q *Query) WithContext(ctx context.Context) *Query {
	q.ctx = ctx
	return q
}

func (q *Query) Execute() (sql.Result, error) {
	if q.ctx == nil {
		return q.db.Exec(q.sql)
	}
	return q.db.ExecContext(q.ctx, q.sql)
}

func (q *Query) Rows() (*sql.Rows, error) {
	if q.ctx == nil {
		return q.db.Query(q.sql)
	}
	return q.db.QueryContext(q.ctx, q.sql)
}

func (q *Query) One(a any) error {
	rows, err := q.Rows()
	if err != nil {
		return err
	}
	return rows.Close()
}

type SelectQuery struct {
	builder Builder
	ctx     context.Context
}

func (s *SelectQuery) From(t string) *SelectQuery { return s }

func (s *SelectQuery) WithContext(ctx context.Context) *SelectQuery {
	s.ctx = ctx
	return s
}

func (s *SelectQuery) Build() *Query { return s.builder.NewQuery("SELECT").WithContext(s.ctx) }

func (s *SelectQuery) One(a any) error { return s.Build().One(a) }
