package wirea

import "testing"

func TestNew(t *testing.T) { _ = New() }
