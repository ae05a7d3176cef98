// Package before is a handler that reads through a repository interface
// whose methods take no context, over database/sql: the shape of most
// SIO001 findings in gin services built on gorm, where the repository's
// methods call r.db.First(...) with no WithContext. syncio follows the
// interface call to the implementation the program binds to it and
// reports SIO001 at the handler's call, with the chain. See ../after.
package before
