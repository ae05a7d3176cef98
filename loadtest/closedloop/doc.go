// Package closedloop runs closed-loop virtual users that produce
// vegeta.Result values.
//
// A closed-loop user sends its next request only when the previous one has
// returned, with no think time, like the article's load test. vegeta's own
// attacker cannot honour Retry-After without counting the wait as latency
// (it timestamps a request before asking for its target), so each user here
// is a plain goroutine: it stamps Timestamp immediately before sending,
// stamps Latency when the response body has been read, hands the Result on,
// and only then sleeps out a 503's Retry-After. The wait therefore sits
// between two results and never inside one. A user never spins: a 503 or
// any other failed request (transport error, 4xx, 5xx, a body cut short)
// is always followed by a wait.
//
// One goroutine per user and one shared keep-alive Transport keep the load
// generator cheap: net/http adds two goroutines per connection, not per
// request, and no Client.Timeout is used because, with a wrapped
// RoundTripper, it would add goroutines per request;
// Transport.ResponseHeaderTimeout bounds the wait instead.
package closedloop
