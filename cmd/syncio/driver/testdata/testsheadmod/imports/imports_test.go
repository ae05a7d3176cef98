package imports

import "testing

func TestF(t *testing.T) {}
