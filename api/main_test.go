package api

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that servers, embedded fakes, pools and per-request clients
// leave no goroutines behind once shut down.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
