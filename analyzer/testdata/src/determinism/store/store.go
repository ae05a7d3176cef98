// Package store declares the interface the handler reaches storage
// through, and one implementation that blocks.
package store

import "net/http"

type Store interface{ Load(key string) error }

type SQL struct{ URL string }

func (s *SQL) Load(key string) error {
	_, err := http.Get(s.URL + key)
	return err
}
