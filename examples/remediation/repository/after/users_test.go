package after

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// waitingDB is a driver whose queries wait for their context and report
// the error it ended with.
type waitingDB struct {
	started chan struct{}
	ended   chan error
}

func (d *waitingDB) Connect(context.Context) (driver.Conn, error) { return waitingConn{d}, nil }
func (d *waitingDB) Driver() driver.Driver                        { return nil }

type waitingConn struct{ d *waitingDB }

func (waitingConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("not supported") }
func (waitingConn) Close() error                        { return nil }
func (waitingConn) Begin() (driver.Tx, error)           { return nil, errors.New("not supported") }
func (c waitingConn) QueryContext(ctx context.Context, _ string, _ []driver.NamedValue) (driver.Rows, error) {
	close(c.d.started)
	<-ctx.Done()
	c.d.ended <- ctx.Err()
	return nil, errors.New("pq: canceling statement due to user request on db-primary.internal:5432")
}

// TestRepositoryQueryEndsWithRequest: the request's context reaches the
// query through the interface; when the client leaves, the query is
// cancelled, and the driver's message (a host name here) is logged, not
// sent.
func TestRepositoryQueryEndsWithRequest(t *testing.T) {
	d := &waitingDB{started: make(chan struct{}), ended: make(chan error, 1)}
	db := sql.OpenDB(d)
	defer db.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /users/{id}", NewHandler(db).User)

	ctx, leave := context.WithCancel(context.Background())
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		mux.ServeHTTP(rec, httptest.NewRequestWithContext(ctx, http.MethodGet, "/users/7", nil))
	}()
	<-d.started
	leave()
	if err := <-d.ended; !errors.Is(err, context.Canceled) {
		t.Errorf("the query's context ended with %v, want Canceled", err)
	}
	<-done
	body, _ := io.ReadAll(rec.Body)
	if rec.Code != http.StatusInternalServerError || strings.Contains(string(body), "db-primary") || !strings.Contains(string(body), `"code":"internal"`) {
		t.Errorf("status %d %q, want 500 with a generic JSON error", rec.Code, body)
	}
}
