// Package after is ../before with every I/O call given the request's
// context: http.NewRequestWithContext with a shared client,
// (*sql.DB).QueryContext and exec.CommandContext. syncio reports nothing.
package after
