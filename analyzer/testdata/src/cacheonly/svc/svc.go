// Package svc is a service behind a repository interface that main binds
// (wire's layout: the handler's package never sees the binding).
package svc

import "context"

type Info struct{ UserID string }

type Repo interface {
	Token(ctx context.Context, tok string) (*Info, error)
}

type Service struct{ Repo Repo }

func (s *Service) UserInfo(ctx context.Context, tok string) (*Info, error) {
	return s.Repo.Token(ctx, tok)
}
