// Package before retries at every layer: the handler retries the
// service, the service retries the client, the client retries the HTTP
// call, three attempts each. When the dependency fails, one request
// becomes 3 × 3 × 3 = 27 calls to it, just when it can least take them,
// and every pause is a time.Sleep that no cancellation ends.
package before
