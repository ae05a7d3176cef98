// Package bad does not type-check.
package bad

// Value is used by usesbad.
const Value = 1

func broken() int {
	return undefinedName // type error
}
