// Package profile is the FakeUserProfileService of the original Synchronous I/O sample:
// a slow dependency that always answers {FirstName: "Alton", LastName: "Hudgens"} after a
// configurable latency.
//
// It offers the same call in two shapes so the demo API can compare them:
//
//   - GetUserProfile blocks its caller for the whole latency and takes no context,
//     deliberately, like Thread.Sleep in the original.
//   - GetUserProfileAsync returns a Future at once. The Future is completed by a runtime
//     timer (time.AfterFunc), so an outstanding call costs a timer and a few words of
//     memory, not a parked goroutine. Cancelling the context completes it early.
//
// Handler serves the async form over HTTP (GET /profile) so the API can be pointed at a
// remote instance on loopback, and Client calls such a server.
package profile
