package blobserver_test

import (
	"testing"

	"go.uber.org/goleak"
)

// The SDK's shared HTTP transport keeps idle keep-alive connections whose goroutines
// outlive a test; they belong to the client side of net/http. Everything else, including
// a server's accept loop or connection goroutines left after Close, counts as a leak.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"),
	)
}
