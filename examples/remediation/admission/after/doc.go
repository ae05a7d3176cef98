// Package after admits requests at the front door without queueing: a
// cap on the requests in flight and on the request-body bytes they may
// hold, and a request past either is answered at once with 503, a
// Retry-After header and a JSON body, so that the client (or the load
// balancer) tries elsewhere or later instead of waiting in a queue the
// server cannot drain.
package after
