// Package temporal runs workflows of the activity runtime on Temporal, so
// that a run outlives the process that started it.
//
// The workflow is the same template that Workflow.Run executes in-process:
// Register turns it into one Temporal workflow (named after it) and one
// Temporal activity per Async activity (named by its path, such as
// "Order/Parallel/UploadReceipt"). In the workflow code, Sequence, If, While
// and Compensable run as plain Go; Parallel and ParallelForEach become
// workflow.Go coroutines whose first failure cancels the others; Code
// activities and Expr arguments run inline and so must be deterministic.
// An Async activity's Begin, wait and End run together in the activity, on
// whichever worker picks it up, with Temporal's timeouts and retries.
package temporal
