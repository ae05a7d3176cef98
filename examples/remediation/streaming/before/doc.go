// Package before streams server-sent events behind the server-timeout
// recipe as first written: the server's WriteTimeout, a deadline for the
// whole response fixed when the request is read, also applies to the
// stream, so a stream longer than it is cut off; and the handler waits on
// its feed with no way out when the client leaves.
package before
