package other

import "testing"

func TestF(t *testing.T) {}
