// Package activity is a small WF4-style activity runtime.
//
// A workflow is an immutable tree of activities built once (the template)
// and run many times. Each run gets its own environment of typed variables;
// the tree itself is never cloned. A run is single-threaded: one scheduler
// loop drains a work queue while holding ONE worker of an Executor (the
// api/pool.Pool satisfies Executor without either package importing the
// other). An Async activity's Begin runs on that worker, its I/O runs with no
// worker held, and its End is queued back as a work item when the I/O
// completes. When the queue is empty but I/O is in flight, the scheduler calls
// Executor.Await and so gives its worker back until a completion arrives;
// Parallel branches therefore overlap their I/O without occupying workers.
//
// Data flows through typed variables (Var) and in/out arguments (Arg, Out):
// what an activity reads and writes is visible in its constructor's
// signature. Cancellation goes through context.Context and errors carry the
// activity path, e.g. "Order/Parallel/UploadReceipt: ...".
//
// Tracking is opt-in per workflow (ProfileNone, ProfileHealth, ProfileBasic)
// and never blocks a run when the Tracker is wrapped in a Buffered, which
// drops and counts events when its sink falls behind.
package activity
