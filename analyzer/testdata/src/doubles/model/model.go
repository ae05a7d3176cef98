// Package model declares the store the handlers use.
package model

import "context"

type Store interface {
	Get(ctx context.Context, id string) (string, error)
	WithTx(block func(Store) error) error
}
