// Package order builds the demo's order workflow on the activity runtime:
//
//	Sequence "Order" {
//	    Validate (code)
//	    Parallel { GetUserProfile, UploadReceipt }
//	    Confirm (code)
//	}
//
// In ModeAsync the two service calls are Async activities: the run gives its
// worker back while both are in flight, and they overlap. In ModeSync they
// are Code activities that block while holding the worker, so the run keeps
// its worker for the whole order and the two calls run one after the other
// (a WF4 instance is single-threaded).
//
// The package knows nothing of the API, azblob or the fakes: the caller
// passes the profile call and the upload as funcs (Services), typically
// closures over its clients.
package order
