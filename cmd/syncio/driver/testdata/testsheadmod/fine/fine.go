// Package fine loads: with -partial the run is judged on it.
package fine

// Nothing blocks here.
func Nothing() {}
