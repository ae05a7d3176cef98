package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"time"

	"github.com/gin-gonic/gin"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	sdklog "go.temporal.io/sdk/log"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/syncio/syncio/api/activity"
	"github.com/syncio/syncio/api/activity/order"
	"github.com/syncio/syncio/api/activity/temporal"
)

const (
	codeTemporalDown = "temporal_unavailable"
	codeOrderFailed  = "order_failed"
	codeNoSuchOrder  = "no_such_order"
)

// durable is the order workflow on Temporal: a client that starts orders and
// a worker, in this process, that runs them.
type durable struct {
	client client.Client
	worker worker.Worker
	name   string // the workflow's registered name
}

// newDurable connects to the Temporal frontend at hostPort and starts a
// worker for wf on temporal.TaskQueue. Dial fails at once when nothing
// answers there, so a wrong -temporal stops start-up with a clear error.
func newDurable(ctx context.Context, hostPort string, wf *activity.Workflow[order.Order, order.Confirmation], log *slog.Logger) (*durable, error) {
	c, err := client.DialContext(ctx, client.Options{
		HostPort: hostPort,
		Logger:   sdklog.NewStructuredLogger(log.With("component", "temporal")),
	})
	if err != nil {
		return nil, fmt.Errorf("temporal at %s: %w", hostPort, err)
	}
	// On shutdown, running activities get a few seconds to finish rather
	// than being cancelled; what is left resumes on the next worker.
	w := worker.New(c, temporal.TaskQueue, worker.Options{WorkerStopTimeout: 5 * time.Second})
	temporal.Register(w, wf)
	if err := w.Start(); err != nil {
		c.Close()
		return nil, fmt.Errorf("temporal worker: %w", err)
	}
	return &durable{client: c, worker: w, name: wf.Name()}, nil
}

// ping asks the Temporal frontend for its health, for /readyz, within
// readyTimeout: a frontend that is down makes the SDK retry until the
// context ends.
func (d *durable) ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	if _, err := d.client.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		return fmt.Errorf("temporal health: %w", err)
	}
	return nil
}

func (d *durable) close() {
	d.worker.Stop()
	d.client.Close()
}

// orderIDs are the workflow IDs durableOrder makes; a status request for
// anything else is answered 404 without asking Temporal.
var orderIDs = regexp.MustCompile(`^order-[A-Za-z0-9_-]{1,64}$`)

// memoDigest is the workflow memo key holding the order's digest, which
// tells a retry (same body) from a conflict (another body).
const memoDigest = "orderDigest"

// durableOrder starts the order workflow on Temporal and waits for it with
// no pool worker held. It answers 201 with the confirmation, or 202 with a
// status URL once Config.TemporalWait has passed: the order goes on without
// the request, and survives this process.
//
// As on the in-process routes, the order's record in storage is its answer
// (order.Record): an ID recorded before, by this route or the in-process
// ones, in this process or an earlier one, on this Temporal server or one
// that has since forgotten it, is answered from its record, and runs
// nothing. Otherwise the workflow ID is the client's order ID, so Temporal
// joins the requests for one ID while it runs: a repeat with the same body
// waits for (or reads) that run and answers the same, one with another
// body is a 409, and only an order whose last run failed may run again. A
// run that found the ID recorded by another run meanwhile fails, deleting
// its receipt, and is answered from that record. Each run has its own run
// key in its input, so it writes and compensates only its own receipt.
func (a *app) durableOrder(c *gin.Context) {
	o := postedOrder(c)
	digest := order.Digest(o)
	o.Run = order.NewRun()
	id := "order-" + o.ID

	ctx := c.Request.Context()
	var conf order.Confirmation
	var started, waited bool
	err := a.pool.Await(ctx, func(ctx context.Context) error {
		rconf, found, err := a.recordedAnswer(ctx, o.ID, digest)
		if found || err != nil {
			conf = rconf
			return err
		}
		run, err := a.durable.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
			ID:        id,
			TaskQueue: temporal.TaskQueue,
			Memo:      map[string]any{memoDigest: digest},
			// A confirmed order stays the one answer for its ID; only a
			// failed, cancelled or timed-out one may be run again.
			WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
			// A running duplicate must be compared first, not joined blindly.
			WorkflowExecutionErrorWhenAlreadyStarted: true,
		}, a.durable.name, o)
		var already *serviceerror.WorkflowExecutionAlreadyStarted
		if errors.As(err, &already) {
			same, derr := a.durable.sameDigest(ctx, id, digest)
			if derr != nil {
				return derr
			}
			if !same {
				return errOrderConflict
			}
			run, err = a.durable.client.GetWorkflow(ctx, id, ""), nil
		}
		if err != nil {
			return err
		}
		started = true
		wctx, cancel := context.WithTimeout(ctx, a.cfg.TemporalWait)
		defer cancel()
		err = run.Get(wctx, &conf)
		waited = err != nil && ctx.Err() == nil && waitEnded(wctx, err)
		var failed *sdktemporal.WorkflowExecutionError
		if errors.As(err, &failed) {
			// Lost the record to another run (order.ErrRecorded, which
			// does not keep its type across Temporal): that run's record
			// is the answer. Any other failure finds none, or cannot read
			// storage either, and stays the workflow's failure.
			if rconf, found, rerr := a.recordedAnswer(ctx, o.ID, digest); found {
				conf = rconf
				return rerr
			}
		}
		return err
	})
	var (
		failed *sdktemporal.WorkflowExecutionError
		rerr   *recordReadError
	)
	switch {
	case err == nil:
		c.JSON(http.StatusCreated, conf)
	case errors.Is(err, errOrderConflict):
		abortConflict(c, o.ID)
	case errors.As(err, &rerr):
		abortUpstream(c, err, codeStorageError, "reading the order's record")
	case errors.As(err, &failed):
		_ = c.Error(err)
		abortError(c, http.StatusBadGateway, codeOrderFailed,
			"the order workflow failed and the order was not confirmed (a receipt it stored is deleted); posting it again runs it anew")
	case ctx.Err() != nil:
		abortError(c, statusClientClosed, codeClientClosed, "client closed the request")
	case waited:
		url := "/api/orders/" + id
		c.Header("Location", url)
		c.JSON(http.StatusAccepted, gin.H{"id": id, "status": "running", "statusUrl": url})
	case !started:
		_ = c.Error(err)
		abortError(c, http.StatusServiceUnavailable, codeTemporalDown, "Temporal is unreachable: the order was not started")
	default:
		_ = c.Error(err)
		abortError(c, http.StatusServiceUnavailable, codeTemporalDown,
			"lost contact with Temporal while waiting for the order; GET /api/orders/"+id+" reports on it")
	}
}

// sameDigest reports whether the latest run of workflow id was started for
// an order with digest want (order.Digest).
func (d *durable) sameDigest(ctx context.Context, id, want string) (bool, error) {
	desc, err := d.client.DescribeWorkflow(ctx, id, "")
	if err != nil {
		return false, err
	}
	p := desc.RawResponse.GetWorkflowExecutionInfo().GetMemo().GetFields()[memoDigest]
	var got string
	if p != nil {
		if err := converter.GetDefaultDataConverter().FromPayload(p, &got); err != nil {
			return false, fmt.Errorf("order memo: %w", err)
		}
	}
	return got == want, nil
}

// waitEnded reports whether err is the end of the wait bounded by wctx.
// gRPC may report the deadline as its own status a moment before wctx's
// timer fires, so both are checked.
func waitEnded(wctx context.Context, err error) bool {
	var dl *serviceerror.DeadlineExceeded
	return wctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || errors.As(err, &dl)
}

// orderStatus answers GET /api/orders/:id for an order that durableOrder
// answered 202: running, completed (with the confirmation) or failed.
func (a *app) orderStatus(c *gin.Context) {
	if a.durable == nil {
		abortError(c, http.StatusNotFound, codeNotFound, "order status needs the API started with -temporal")
		return
	}
	id := c.Param("id")
	if !orderIDs.MatchString(id) {
		abortError(c, http.StatusNotFound, codeNoSuchOrder, "no such order")
		return
	}
	var status enumspb.WorkflowExecutionStatus
	var conf order.Confirmation
	var runErr error
	err := a.pool.Await(c.Request.Context(), func(ctx context.Context) error {
		d, err := a.durable.client.DescribeWorkflow(ctx, id, "")
		if err != nil {
			return err
		}
		status = d.RawResponse.GetWorkflowExecutionInfo().GetStatus()
		if status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
			runErr = a.durable.client.GetWorkflow(ctx, id, "").Get(ctx, &conf)
			// Only the workflow's own outcome is "failed"; not reaching
			// Temporal to read it is the route's error.
			var failed *sdktemporal.WorkflowExecutionError
			if runErr != nil && !errors.As(runErr, &failed) {
				return runErr
			}
		}
		return nil
	})
	var notFound *serviceerror.NotFound
	switch {
	case errors.As(err, &notFound):
		abortError(c, http.StatusNotFound, codeNoSuchOrder, "no such order")
	case err != nil:
		abortUpstream(c, err, codeTemporalDown, "order status")
	case status == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING:
		c.JSON(http.StatusOK, gin.H{"id": id, "status": "running"})
	case runErr != nil:
		// The failure's text stays in the log: it may carry storage URLs.
		a.log.Warn("order failed", "id", id, "request_id", c.GetString(requestIDKey), "err", runErr)
		c.JSON(http.StatusOK, gin.H{"id": id, "status": "failed", "error": "the order workflow failed and the order was not confirmed"})
	default:
		c.JSON(http.StatusOK, gin.H{"id": id, "status": "completed", "confirmation": conf})
	}
}
