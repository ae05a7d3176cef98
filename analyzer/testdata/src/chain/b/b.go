// Package b is the middle of a cross-package chain.
package b

import (
	"context"

	"chain/c"
)

type Profiles struct{}

func (p *Profiles) Load(id string) error { return c.Fetch("http://profiles/" + id) } // want Load:`^blocks\(SIO001: c.Fetch → net/http.Get\)$`

// Repo is generic; its method blocks through a generic function.
type Repo[T any] struct{}

func (r Repo[T]) Find(id string) (T, error) { return c.Get[T]("http://repo/" + id) } // want Find:`^blocks\(SIO001: c.Get → c.Fetch → net/http.Get\)$`

func Audit() error { return c.Drop() } // want Audit:`^blocks\(SIO002: c.Drop → database/sql.\(\*DB\).PingContext\)$`

func Load(ctx context.Context, id string) error { return c.FetchCtx(ctx, id) } // want Load:`^blocks\(SIO008: c\.FetchCtx → net/http\.\(\*Client\)\.Do\) \+ io\(c\.FetchCtx → net/http\.\(\*Client\)\.Do\)$`

func Count(id string) int { return c.Pure(id) }
