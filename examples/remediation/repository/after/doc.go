// Package after is ../before with the context threaded through the
// repository: every interface method takes ctx first, the handler passes
// r.Context(), and the implementation gives it to the query
// (QueryRowContext; with gorm, r.db.WithContext(ctx) at the start of each
// chain). Errors are logged, and the client gets a generic JSON error.
// syncio reports nothing.
package after
