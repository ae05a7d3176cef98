package wirec

import "testing"

func TestNew(t *testing.T) { _ = New() }
