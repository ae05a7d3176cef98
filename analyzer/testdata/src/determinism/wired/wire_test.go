package wired

import "testing"

func TestNew(t *testing.T) { _ = New() }
