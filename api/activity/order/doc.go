// Package order builds the demo's order workflow on the activity runtime:
//
//	Sequence "Order" {
//	    Validate (code)
//	    Compensable "Receipt" { PrepareReceipt (code) } compensated by DeleteReceipt
//	    Parallel { GetUserProfile, UploadReceipt }
//	    Confirm (code)
//	    Record                  (with Services.Record)
//	}
//
// If the order faults after PrepareReceipt, DeleteReceipt runs, so a failed
// order leaves no receipt, even one stored by an upload attempt whose answer
// was lost.
//
// Record stores the order's Record under RecordName(id), once per ID: the
// confirmation it was answered with and its digest. It is the commit point,
// inside the receipt's compensation: a run that finds the ID recorded by
// another run fails with ErrRecorded and deletes its own receipt. A caller
// reads the record before it runs an order, so a repeat is answered from
// it, after a restart as before one.
//
// In ModeAsync the two service calls are Async activities: the run gives its
// worker back while both are in flight, and they overlap. In ModeSync they
// are Code activities that block while holding the worker, so the run keeps
// its worker for the whole order and the two calls run one after the other
// (a WF4 instance is single-threaded).
//
// The package knows nothing of the API, azblob or the fakes: the caller
// passes the profile call, the upload, the delete and the record as funcs
// (Services),
// typically closures over its clients. The same workflow runs in-process
// (Workflow.Run) or on a durable host (api/activity/temporal), where its
// Async activities become Temporal activities.
package order
