package testbroken

import "testing"

func TestHandler(t *testing.T) {
	var n int = "not a number"
	Handler(n, nil)
}
