// Package files declares the interface api calls and remote implements:
// neither imports the other.
package files

type Store interface {
	Fetch(key string) (string, error)
}
