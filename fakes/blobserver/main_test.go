package blobserver_test

import (
	"testing"

	"go.uber.org/goleak"
)

// The SDK's shared HTTP transport keeps idle keep-alive connections whose goroutines
// outlive a test; they belong to net/http, not to the server under test.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
	)
}
