// Package good has one call the test analyzer flags.
package good

func block() {}

// Handler calls block.
func Handler() {
	block() // finding
}
