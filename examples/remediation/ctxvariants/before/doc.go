// Package before calls I/O functions that take no context from HTTP
// handlers: http.Get, (*sql.DB).Query and exec.Command. syncio reports each
// one as SIO001. See ../after for the fix.
package before
