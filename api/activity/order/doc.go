// Package order builds the demo's order workflow on the activity runtime:
//
//	Sequence "Order" {
//	    Validate (code)
//	    Compensable "Receipt" { PrepareReceipt (code) } compensated by DeleteReceipt
//	    Parallel { GetUserProfile, UploadReceipt }
//	    Confirm (code)
//	}
//
// If the order faults after PrepareReceipt, DeleteReceipt runs, so a failed
// order leaves no receipt, even one stored by an upload attempt whose answer
// was lost.
//
// In ModeAsync the two service calls are Async activities: the run gives its
// worker back while both are in flight, and they overlap. In ModeSync they
// are Code activities that block while holding the worker, so the run keeps
// its worker for the whole order and the two calls run one after the other
// (a WF4 instance is single-threaded).
//
// The package knows nothing of the API, azblob or the fakes: the caller
// passes the profile call, the upload and the delete as funcs (Services),
// typically closures over its clients. The same workflow runs in-process
// (Workflow.Run) or on a durable host (api/activity/temporal), where its
// Async activities become Temporal activities.
package order
