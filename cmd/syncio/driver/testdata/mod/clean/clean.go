// Package clean has nothing the test analyzer flags.
package clean

func wait() {}

// Handler calls nothing that blocks.
func Handler() { wait() }
