package analyzer

import (
	"testing"
)

// TestTxAcrossIO covers SIO007: database/sql, sqlx, gorm (Transaction
// literal and Begin/Commit) and pgx transactions and pooled connections
// held open across a remote call, directly and through helpers in the
// same and another package; and the transaction's own queries, calls
// before Begin or after Commit, and goroutines, which are not.
func TestTxAcrossIO(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "txio", "txio/notify")
}
