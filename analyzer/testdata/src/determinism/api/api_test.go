package api

import "testing"

// The test file gives api a test variant, analysed beside api.
func TestUsers(t *testing.T) { _ = &Users{} }
