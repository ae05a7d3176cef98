// Package service sits between the handlers and a repository interface.
package service

// Repo is implemented by store.Finder, wired in app.
type Repo interface{ Find(id string) error }

type Service struct{ Repo Repo }

// Lookup reaches the repository through its interface: a second hop of
// dispatch.
func (s *Service) Lookup(id string) error { return s.Repo.Find(id) }
