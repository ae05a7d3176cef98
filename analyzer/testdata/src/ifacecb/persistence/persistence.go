// Package persistence implements model.DataStore: WithTx calls its block
// inside a literal handed to dbx.Transactional, WithTxImmediate inside a
// literal handed to WithTx (navidrome's SQLStore).
package persistence

import (
	"net/http"

	"ifacecb/dbx"
	"ifacecb/model"
)

type SQLStore struct {
	hooks []func(tx model.DataStore) error
}

func New() model.DataStore { return &SQLStore{} }

func (s *SQLStore) WithTx(block func(tx model.DataStore) error) error {
	return dbx.Transactional(func() error { return block(&SQLStore{}) })
}

func (s *SQLStore) WithTxImmediate(block func(tx model.DataStore) error) error {
	return s.WithTx(func(tx model.DataStore) error { return block(tx) })
}

func (s *SQLStore) OnCommit(block func(tx model.DataStore) error) error {
	s.hooks = append(s.hooks, block)
	return nil
}

func (s *SQLStore) Background(block func(tx model.DataStore) error) error {
	go func() { _ = block(s) }()
	return nil
}

func (s *SQLStore) Enqueue(block func(tx model.DataStore) error) error {
	s.hooks = append(s.hooks, block)
	_, err := http.Get("http://queue/jobs")
	return err
}
