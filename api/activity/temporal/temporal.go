package temporal

import (
	"context"
	"fmt"
	"time"

	sdkactivity "go.temporal.io/sdk/activity"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/syncio/syncio/api/activity"
)

// TaskQueue is the task queue the demo's workers poll and its client
// starts orders on.
const TaskQueue = "syncio-order"

// Registry is the part of a Temporal worker that Register needs;
// worker.Worker and the SDK's testsuite environment both satisfy it.
type Registry interface {
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
	RegisterActivityWithOptions(a any, options sdkactivity.RegisterOptions)
}

// Option configures how Register runs a workflow's activities.
type Option func(*config)

type config struct {
	timeout, heartbeat time.Duration
	retry              *sdktemporal.RetryPolicy
}

// WithHeartbeat sets the activities' heartbeat timeout (10 s by default).
// A running activity records a heartbeat three times per timeout (the SDK
// sends at most one to the server per 0.8 timeout, the first at once): a
// worker that dies is noticed after one timeout, not after the whole
// attempt's, and a cancelled activity (a failed Parallel sibling) learns of
// it with the next heartbeat the SDK sends, up to about 0.8 timeout later,
// since Temporal delivers cancellation only there, and the workflow waits
// for it to stop. 0 turns heartbeats off: a cancelled
// activity then runs to its end or its timeout.
func WithHeartbeat(d time.Duration) Option {
	return func(c *config) { c.heartbeat = d }
}

// WithActivityTimeout bounds each attempt of an activity (Temporal's
// start-to-close timeout, 30 s by default). A worker that dies mid-attempt
// is noticed when it runs out, and the attempt is retried elsewhere. A
// non-positive d keeps the default: Temporal needs a bound.
func WithActivityTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithRetry sets the activities' retry policy (by default 5 attempts,
// 100 ms apart and doubling). An activity that fails on its last attempt
// fails the workflow, which then runs its compensations.
func WithRetry(p *sdktemporal.RetryPolicy) Option {
	return func(c *config) { c.retry = p }
}

// Register registers wf on r: its workflow function under wf.Name() and its
// Async activities under their paths. Register the same template, built the
// same way, on every worker of a task queue.
func Register[I, O any](r Registry, wf *activity.Workflow[I, O], opts ...Option) {
	cfg := config{
		timeout:   30 * time.Second,
		heartbeat: 10 * time.Second,
		retry: &sdktemporal.RetryPolicy{
			InitialInterval:    100 * time.Millisecond,
			BackoffCoefficient: 2,
			MaximumInterval:    5 * time.Second,
			MaximumAttempts:    5,
		},
	}
	for _, o := range opts {
		o(&cfg)
	}
	ao := workflow.ActivityOptions{
		StartToCloseTimeout: cfg.timeout,
		HeartbeatTimeout:    max(cfg.heartbeat, 0),
		RetryPolicy:         cfg.retry,
		// A cancelled activity (a failed Parallel sibling) is waited for
		// until it has stopped: otherwise Parallel returns at once and a
		// compensation can run while the activity is still going, such as
		// DeleteReceipt before the upload it undoes has stored the blob.
		WaitForCancellation: true,
	}
	r.RegisterWorkflowWithOptions(func(ctx workflow.Context, in I) (O, error) {
		return wf.RunOn(host{ctx: workflow.WithActivityOptions(ctx, ao)}, in)
	}, workflow.RegisterOptions{Name: wf.Name()})
	var around activity.Around
	if cfg.heartbeat > 0 {
		around = heartbeating(cfg.heartbeat / 3)
	}
	for _, l := range wf.Leaves(around) {
		r.RegisterActivityWithOptions(l.Func, sdkactivity.RegisterOptions{Name: l.Path})
	}
}

// heartbeating heartbeats every period while an activity runs.
func heartbeating(period time.Duration) activity.Around {
	return func(ctx context.Context, call func(context.Context) error) error {
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			t := time.NewTicker(period)
			defer t.Stop()
			for {
				select {
				case <-t.C:
					sdkactivity.RecordHeartbeat(ctx)
				case <-stop:
					return
				}
			}
		}()
		return call(ctx)
	}
}

// host is activity.Host over a workflow.Context.
type host struct{ ctx workflow.Context }

func (h host) Call(path string, in, out any) error {
	if err := workflow.ExecuteActivity(h.ctx, path, in).Get(h.ctx, out); err != nil {
		return fmt.Errorf("temporal activity: %w", err)
	}
	return nil
}

func (h host) Parallel(branches []func(activity.Host) error) error {
	ctx, cancel := workflow.WithCancel(h.ctx)
	defer cancel()
	// Buffered, so a branch that ends after the first failure never blocks.
	done := workflow.NewBufferedChannel(h.ctx, len(branches))
	for _, b := range branches {
		workflow.Go(ctx, func(gctx workflow.Context) {
			done.Send(gctx, b(host{ctx: gctx}))
		})
	}
	var first error
	for range branches {
		var err error
		done.Receive(h.ctx, &err)
		if err != nil && first == nil {
			first = err
			cancel()
		}
	}
	return first
}

func (h host) Detached() activity.Host {
	// Lives as long as the workflow: there is nothing to release early.
	ctx, _ := workflow.NewDisconnectedContext(h.ctx)
	return host{ctx: ctx}
}
