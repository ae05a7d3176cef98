// want package:`pending\(2\)` package:`joined\(1\)`
package txio

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
	"gorm.io/gorm"

	"txio/notify"
	"txio/pb"
)

var (
	db   *sql.DB
	xdb  *sqlx.DB
	gdb  *gorm.DB
	pool *pgxpool.Pool
	pay  pb.PaymentsClient
)

// BeginGetCommit holds a transaction across a context-less http.Get.
func BeginGetCommit(w http.ResponseWriter, r *http.Request) {
	tx, err := db.Begin() // want `database/sql.\(\*DB\).Begin blocks`
	if err != nil {
		return
	}
	_, _ = tx.ExecContext(r.Context(), "UPDATE orders SET paid = true")
	_, _ = http.Get("http://payments/charge") // want `^net/http.Get blocks without` `^net/http.Get blocks without the request context while transaction tx \(begun at txio.go:27\) is open; the transaction holds a pooled database connection.*\(SIO007\)$`
	_ = tx.Commit()
}

// DeferredRollback: BeginTx, defer Rollback, then a context-aware call.
func DeferredRollback(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return
	}
	defer tx.Rollback()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://payments/charge", nil)
	_, _ = http.DefaultClient.Do(req) // want `^net/http.\(\*Client\).Do does I/O while transaction tx \(begun at txio.go:39\) is open.*\(SIO007\)$` `\(SIO008\)$`
}

// GormTransaction makes the remote call inside the Transaction literal.
func GormTransaction(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	_ = gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		tx.Create(&struct{}{})
		return notify.Send(ctx, "http://payments/charge") // want `^GormTransaction calls notify.Send → net/http.\(\*Client\).Do, which does I/O while transaction tx \(gorm Transaction at txio.go:51\) is open.*\(SIO007\)$` `\(SIO008\)$`
	})
}

// GormBegin uses gorm's manual Begin/Commit.
func GormBegin(w http.ResponseWriter, r *http.Request) {
	tx := gdb.WithContext(r.Context()).Begin()
	tx.Create(&struct{}{})
	_ = notify.Send(r.Context(), "http://payments/charge") // want `notify.Send → .*while transaction tx \(begun at txio.go:59\) is open.*\(SIO007\)$` `\(SIO008\)$`
	tx.Commit()
}

// ViaHelper calls a same-package helper that does the HTTP call.
func ViaHelper(w http.ResponseWriter, r *http.Request) {
	tx, _ := xdb.BeginTxx(r.Context(), nil)
	defer tx.Rollback()
	_ = charge(r.Context()) // want `^ViaHelper calls txio.charge → net/http.\(\*Client\).Do, which does I/O while transaction tx \(begun at txio.go:67\) is open.*\(SIO007\)$` `\(SIO008\)$`
	_ = tx.Commit()
}

func charge(ctx context.Context) error { // want charge:`^blocks\(SIO008: net/http\.\(\*Client\)\.Do\) \+ io\(net/http\.\(\*Client\)\.Do\)$`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://payments/charge", nil)
	_, err := http.DefaultClient.Do(req)
	return err
}

// Pgx holds a pgx transaction across a remote call.
func Pgx(w http.ResponseWriter, r *http.Request) {
	tx, _ := pool.Begin(r.Context())
	defer tx.Rollback(r.Context())
	_, _ = tx.Exec(r.Context(), "INSERT")
	_ = charge(r.Context()) // want `txio.charge → .*while transaction tx \(begun at txio.go:81\) is open.*\(SIO007\)$` `\(SIO008\)$`
}

// Conn holds a pooled connection across a remote call.
func Conn(w http.ResponseWriter, r *http.Request) {
	conn, _ := db.Conn(r.Context())
	defer conn.Close()
	_ = charge(r.Context()) // want `while transaction conn \(taken from the pool at txio.go:89\) is open.*\(SIO007\)$` `\(SIO008\)$`
}

// HelperHoldsTx calls a helper in another package that holds its own
// transaction across a remote call: reported at the call.
func HelperHoldsTx(w http.ResponseWriter, r *http.Request) {
	_ = notify.Record(r.Context(), db, "http://payments/charge") // want `^HelperHoldsTx calls notify.Record → net/http.\(\*Client\).Do, which does I/O while transaction tx \(begun at notify.go:26\) is open.*\(SIO007\)$` `\(SIO008\)$`
}

// Suppressed documents a transaction held across a call on purpose.
func Suppressed(w http.ResponseWriter, r *http.Request) {
	tx, _ := db.BeginTx(r.Context(), nil)
	defer tx.Rollback()
	//syncio:ignore SIO007 -- the ledger service is in-process behind this URL
	_ = charge(r.Context()) // want `\(SIO008\)$`
	_ = tx.Commit()
}

// GRPC calls a generated gRPC client inside a gorm transaction.
func GRPC(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	_ = gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		tx.Create(&struct{}{})
		_, err := pay.Charge(ctx, &pb.ChargeRequest{OrderID: "1"}) // want `^pb.PaymentsClient.Charge does I/O while transaction tx \(gorm Transaction at txio.go:1[0-9][0-9]\) is open.*\(SIO007\)$`
		return err
	})
}

// GRPCAfterCommit calls it once the transaction is committed.
func GRPCAfterCommit(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	tx, _ := db.BeginTx(ctx, nil)
	_ = tx.Commit()
	_, _ = pay.Charge(ctx, &pb.ChargeRequest{OrderID: "1"})
	f := func() { _, _ = pay.Charge(ctx, nil) }
	_ = f
}

// --- negatives ---

// QueriesOnly runs only the transaction's own queries.
func QueriesOnly(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	tx, _ := db.BeginTx(ctx, nil)
	defer tx.Rollback()
	_, _ = tx.ExecContext(ctx, "INSERT")
	_ = tx.QueryRowContext(ctx, "SELECT 1").Scan(new(int))
	_ = insert(ctx, tx)
	_ = tx.Commit()
}

func insert(ctx context.Context, tx *sql.Tx) error { // want insert:`^io\(database/sql.\(\*Tx\).ExecContext\)$`
	_, err := tx.ExecContext(ctx, "INSERT")
	return err
}

// RemoteBeforeBegin makes the call before the transaction starts.
func RemoteBeforeBegin(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if err := charge(ctx); err != nil { // want `\(SIO008\)$`
		return
	}
	tx, _ := db.BeginTx(ctx, nil)
	defer tx.Rollback()
	_, _ = tx.ExecContext(ctx, "UPDATE orders SET paid = true")
	_ = tx.Commit()
}

// RemoteAfterCommit makes the call once the transaction is committed,
// with the deferred Rollback still pending (a no-op after Commit).
func RemoteAfterCommit(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	tx, _ := db.BeginTx(ctx, nil)
	defer tx.Rollback()
	_, _ = tx.ExecContext(ctx, "INSERT INTO orders")
	if err := tx.Commit(); err != nil {
		return
	}
	_ = charge(ctx) // want `\(SIO008\)$`
}

// RollbackBranch rolls back in an early-return branch and reports the
// failure after it; the remote call in the branch runs after Rollback.
func RollbackBranch(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	tx, _ := db.BeginTx(ctx, nil)
	if _, err := tx.ExecContext(ctx, "INSERT"); err != nil {
		tx.Rollback()
		_ = charge(ctx) // want `\(SIO008\)$`
		return
	}
	_ = tx.Commit()
}

// Goroutine starts the call in a goroutine: off the request path.
func Goroutine(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	tx, _ := db.BeginTx(ctx, nil)
	defer tx.Rollback()
	go charge(context.WithoutCancel(ctx))
	go func() { _, _ = http.Get("http://audit") }()
	_ = tx.Commit()
}

// OtherQuery runs a query on the pool while the transaction is open: a
// database call, not a remote one.
func OtherQuery(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	tx, _ := db.BeginTx(ctx, nil)
	defer tx.Rollback()
	_, _ = db.ExecContext(ctx, "INSERT INTO audit")
	_ = tx.Commit()
}
