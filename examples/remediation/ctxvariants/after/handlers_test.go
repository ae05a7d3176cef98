package after

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// rowsThenError is a database/sql driver whose queries return two rows and
// then fail, as a query cancelled or cut off mid-result does.
type rowsThenError struct{}

func (rowsThenError) Open(string) (driver.Conn, error) { return conn{}, nil }

type conn struct{}

func (conn) Prepare(string) (driver.Stmt, error) { return stmt{}, nil }
func (conn) Close() error                        { return nil }
func (conn) Begin() (driver.Tx, error)           { return nil, errors.New("no transactions") }

type stmt struct{}

func (stmt) Close() error                               { return nil }
func (stmt) NumInput() int                              { return -1 }
func (stmt) Exec([]driver.Value) (driver.Result, error) { return nil, errors.New("no exec") }
func (stmt) Query([]driver.Value) (driver.Rows, error)  { return &rows{}, nil }

type rows struct{ n int }

func (*rows) Columns() []string { return []string{"id"} }
func (*rows) Close() error      { return nil }
func (r *rows) Next(dest []driver.Value) error {
	if r.n == 2 {
		return context.Canceled
	}
	r.n++
	dest[0] = "order-" + string(rune('0'+r.n))
	return nil
}

func init() { sql.Register("rows-then-error", rowsThenError{}) }

// TestOrdersChecksRowsErr: a result cut off after two rows is an error,
// not a 200 with two of the orders.
func TestOrdersChecksRowsErr(t *testing.T) {
	db, err := sql.Open("rows-then-error", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := &Service{DB: db}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/orders/c1", nil)
	req.SetPathValue("id", "c1")
	s.Orders(rec, req)
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d with body %q, want 500 for a cut-off result", rec.Code, rec.Body.String())
	}
	if strings.Contains(rec.Body.String(), "order-1") {
		t.Errorf("body %q carries part of the result", rec.Body.String())
	}
}

// TestProfileCallHasADeadline: a downstream that trickles its body forever
// is cut off by the call's own deadline, although the client never leaves.
func TestProfileCallHasADeadline(t *testing.T) {
	stop := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for {
			if _, err := w.Write([]byte(".")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}))
	defer up.Close()
	defer close(stop)
	s := &Service{Client: up.Client(), ProfileURL: up.URL, CallTimeout: 100 * time.Millisecond}
	done := make(chan struct{})
	go func() {
		defer close(done)
		req := httptest.NewRequest(http.MethodGet, "/profiles/1", nil)
		req.SetPathValue("id", "1")
		s.Profile(httptest.NewRecorder(), req)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second): // a hang guard, not a timing claim
		t.Fatal("Profile was still copying a trickling body: the call has no deadline")
	}
}

// TestThumbnailWaitDelay: the converter is killed when the request ends,
// and Thumbnail returns while a child of the converter that still holds its
// output is running, instead of waiting for that child to exit.
func TestThumbnailWaitDelay(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh")
	}
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	s := &Service{Convert: []string{"sh", "-c", "sleep 20 & echo $! > " + pidFile + "; exec sleep 20"}}
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/thumbnail", io.NopCloser(strings.NewReader("")))
	rec := httptest.NewRecorder()
	time.AfterFunc(200*time.Millisecond, cancel)
	s.Thumbnail(rec, req)
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500 after the request was cancelled", rec.Code)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = syscall.Kill(pid, syscall.SIGKILL) }()
	if err := syscall.Kill(pid, 0); err != nil {
		t.Errorf("the converter's child had already exited when Thumbnail returned (%v): it waited for the child's output to close", err)
	}
}

// TestProfileErrorIsNotEchoed: a failed call's error, which names the
// upstream's URL, is logged; the client gets a generic JSON 502.
func TestProfileErrorIsNotEchoed(t *testing.T) {
	up := httptest.NewServer(http.NotFoundHandler())
	up.Close() // every call fails to connect
	s := &Service{Client: up.Client(), ProfileURL: up.URL + "/internal/profiles"}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/profiles/1", nil)
	req.SetPathValue("id", "1")
	s.Profile(rec, req)
	body := rec.Body.String()
	if rec.Code != http.StatusBadGateway || rec.Header().Get("Content-Type") != "application/json" ||
		strings.Contains(body, up.URL) || strings.Contains(body, "internal/profiles") || !strings.Contains(body, `"code":"upstream"`) {
		t.Errorf("status %d, %q, body %q: want a generic JSON 502 that names no URL", rec.Code, rec.Header().Get("Content-Type"), body)
	}
}
