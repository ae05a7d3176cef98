// Package after is ../before with retries in one layer, the client
// closest to the dependency, under a retry budget shared by every caller
// of that dependency: each request deposits a tenth of a token, each
// retry spends one, so under a dependency that fails every call the
// retries settle at 10% of the requests instead of multiplying them. The
// pauses are jittered, end with the caller's context, and are not started
// when the caller's deadline would cut them short.
package after
