package temporal_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	sdkactivity "go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/syncio/syncio/api/activity"
	"github.com/syncio/syncio/api/activity/order"
	"github.com/syncio/syncio/api/activity/temporal"
)

func testOrder(id string) order.Order {
	// A run key, as the API sets one per run (order.NewRun); derived from
	// the ID here so an order built twice is the same input.
	sum := md5.Sum([]byte(id))
	return order.Order{ID: id, Run: hex.EncodeToString(sum[:]), Items: []order.Item{{SKU: "pen", Quantity: 3, PriceCents: 150}, {SKU: "ink", Quantity: 1, PriceCents: 999}}}
}

// calls records what the order's services were asked to do.
type calls struct {
	mu                        sync.Mutex
	profiles, uploads, failed int
	deletes                   []string
	uploadErr                 error         // when set, every upload fails with it
	uploadTakes               time.Duration // how long each upload waits
}

func (c *calls) services() order.Services {
	return order.Services{
		Profile: func(context.Context) (order.Profile, error) {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.profiles++
			return order.Profile{FirstName: "Ada", LastName: "Lovelace"}, nil
		},
		Upload: func(_ context.Context, name string, data []byte) (order.Blob, error) {
			time.Sleep(c.uploadTakes)
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.uploadErr != nil {
				c.failed++
				return order.Blob{}, c.uploadErr
			}
			c.uploads++
			sum := md5.Sum(data)
			return order.Blob{Name: name, Size: int64(len(data)), MD5: hex.EncodeToString(sum[:])}, nil
		},
		Delete: func(_ context.Context, name string) error {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.deletes = append(c.deletes, name)
			return nil
		},
	}
}

// runOrder runs the order template over c's services on a fresh test
// environment, registered with opts, and returns the finished environment.
func runOrder(c *calls, id string, opts ...temporal.Option) *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	wf := order.New(order.ModeAsync, c.services())
	temporal.Register(env, wf, opts...)
	env.ExecuteWorkflow(wf.Name(), testOrder(id))
	return env
}

// TestOrderOnTestsuite runs the order template on the SDK's test
// environment and checks it confirms exactly what the in-process run does.
func TestOrderOnTestsuite(t *testing.T) {
	onTemporal := &calls{}
	env := runOrder(onTemporal, "T1")
	if !env.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var got order.Confirmation
	if err := env.GetWorkflowResult(&got); err != nil {
		t.Fatal(err)
	}

	inProcess := &calls{}
	want, err := order.New(order.ModeAsync, inProcess.services()).Run(context.Background(), activity.Unlimited{}, testOrder("T1"))
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("on Temporal: %+v\nin-process: %+v", got, want)
	}
	if got.Customer != "Ada Lovelace" || got.TotalCents != 1449 || !strings.HasPrefix(got.Receipt.Name, "receipts/T1/") || got.Receipt.MD5 == "" {
		t.Errorf("confirmation = %+v", got)
	}
	if onTemporal.profiles != 1 || onTemporal.uploads != 1 || len(onTemporal.deletes) != 0 {
		t.Errorf("services: %d profiles, %d uploads, deletes %q; want 1, 1, none", onTemporal.profiles, onTemporal.uploads, onTemporal.deletes)
	}
}

// TestOptionsWithoutHeartbeat: heartbeats off and a non-positive timeout
// (which keeps the default) still run the order, and a slow upload then
// records no heartbeat, where the default records some.
func TestOptionsWithoutHeartbeat(t *testing.T) {
	run := func(opts ...temporal.Option) (order.Confirmation, int, error) {
		c := &calls{uploadTakes: 1200 * time.Millisecond}
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		var mu sync.Mutex
		beats := 0
		env.SetOnActivityHeartbeatListener(func(*sdkactivity.Info, converter.EncodedValues) {
			mu.Lock()
			defer mu.Unlock()
			beats++
		})
		wf := order.New(order.ModeAsync, c.services())
		temporal.Register(env, wf, opts...)
		env.ExecuteWorkflow(wf.Name(), testOrder("T4"))
		var got order.Confirmation
		err := env.GetWorkflowResult(&got)
		mu.Lock()
		defer mu.Unlock()
		return got, beats, err
	}
	got, beats, err := run(temporal.WithHeartbeat(0), temporal.WithActivityTimeout(-time.Second))
	if err != nil || got.Status != "confirmed" || beats != 0 {
		t.Errorf("heartbeats off: confirmation %+v, %v; %d heartbeats, want 0", got, err, beats)
	}
	// A 600 ms heartbeat timeout: one every 200 ms through the 1.2 s
	// upload. (At 30 ms, a busy -race run missed a beat by 26 ms and the
	// activity timed out.)
	if _, beats, err := run(temporal.WithHeartbeat(600 * time.Millisecond)); err != nil || beats == 0 {
		t.Errorf("heartbeats on: %d heartbeats, %v; want some", beats, err)
	}
}

// TestUploadFailsForGoodCompensates: the upload fails on every attempt,
// Temporal retries it up to the policy's limit, the workflow faults with
// the activity's path and the compensation deletes the receipt once.
func TestUploadFailsForGoodCompensates(t *testing.T) {
	c := &calls{uploadErr: errors.New("storage down")}
	env := runOrder(c, "T2", temporal.WithRetry(&sdktemporal.RetryPolicy{MaximumAttempts: 3}))
	err := env.GetWorkflowError()
	if err == nil || !strings.Contains(err.Error(), "Order/Parallel/UploadReceipt") || !strings.Contains(err.Error(), "storage down") {
		t.Fatalf("workflow error = %v, want the upload's failure with its path", err)
	}
	if c.failed != 3 {
		t.Errorf("upload attempts = %d, want 3 (the retry policy)", c.failed)
	}
	if len(c.deletes) != 1 || !strings.HasPrefix(c.deletes[0], "receipts/T2/") {
		t.Errorf("compensation deleted %q, want the receipt once", c.deletes)
	}
}

// TestCompositesMatchInProcess runs a workflow using every composite on
// both hosts: same output, same activities called.
func TestCompositesMatchInProcess(t *testing.T) {
	build := func(seen *[]string, mu *sync.Mutex) *activity.Workflow[[]int, int] {
		record := func(ctx context.Context, n int) (int, error) {
			mu.Lock()
			defer mu.Unlock()
			*seen = append(*seen, "double")
			return 2 * n, nil
		}
		return activity.New("Composites", func(s *activity.Scope, in activity.Var[[]int], out activity.Var[int]) activity.Activity {
			sum := activity.Declare[int](s, "sum")
			i := activity.Declare[int](s, "i")
			return activity.Sequence("Root",
				activity.ParallelForEach("Each", in, func(bs *activity.Scope, item activity.Var[int]) activity.Activity {
					d := activity.Declare[int](bs, "d")
					return activity.Sequence("Branch",
						activity.AsyncIO("Double", item, d, record),
						activity.Code("Add", d, nil, func(_ context.Context, v int) (struct{}, error) {
							return struct{}{}, nil
						}),
						activity.Code("Accumulate", activity.Expr[int](func(e *activity.Env) int { return sum.Get(e) + d.Get(e) }), sum,
							func(_ context.Context, v int) (int, error) { return v, nil }),
					)
				}),
				activity.While("Loop", activity.Expr[bool](func(e *activity.Env) bool { return i.Get(e) < 3 }),
					activity.Code("Inc", activity.Expr[int](func(e *activity.Env) int { return i.Get(e) + 1 }), i,
						func(_ context.Context, v int) (int, error) { return v, nil })),
				activity.If("Big", activity.Expr[bool](func(e *activity.Env) bool { return sum.Get(e) > 10 }),
					activity.Code("Bonus", activity.Expr[int](func(e *activity.Env) int { return sum.Get(e) + 100*i.Get(e) }), out,
						func(_ context.Context, v int) (int, error) { return v, nil }),
					activity.Code("Plain", sum, out, func(_ context.Context, v int) (int, error) { return v, nil })),
			)
		})
	}
	var mu sync.Mutex
	var local, remote []string
	want, err := build(&local, &mu).Run(context.Background(), activity.Unlimited{}, []int{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	wf := build(&remote, &mu)
	temporal.Register(env, wf)
	env.ExecuteWorkflow(wf.Name(), []int{1, 2, 3})
	var got int
	if err := env.GetWorkflowResult(&got); err != nil {
		t.Fatal(err)
	}
	if got != want || want != 312 {
		t.Errorf("on Temporal %d, in-process %d, want 312", got, want)
	}
	if len(remote) != 3 || len(local) != 3 {
		t.Errorf("activity calls: on Temporal %q, in-process %q", remote, local)
	}
}

// TestParallelFailureCancelsSibling: the first failing branch requests the
// cancellation of the other's activity. (The testsuite records the request
// and settles the activity as cancelled at once, but does not deliver it to
// the activity's context, so this cannot show the workflow waiting for it.)
func TestParallelFailureCancelsSibling(t *testing.T) {
	errDown := errors.New("profile service down")
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	wf := order.New(order.ModeAsync, order.Services{
		Profile: func(ctx context.Context) (order.Profile, error) {
			<-started
			return order.Profile{}, sdktemporal.NewNonRetryableApplicationError("down", "ProfileDown", errDown)
		},
		Upload: func(ctx context.Context, _ string, _ []byte) (order.Blob, error) {
			close(started)
			select {
			case <-ctx.Done():
			case <-release:
			}
			return order.Blob{}, errors.New("cancelled")
		},
		Delete: func(context.Context, string) error { return nil },
	})
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var cancelled []string
	env.SetOnActivityCanceledListener(func(info *sdkactivity.Info) { cancelled = append(cancelled, info.ActivityType.Name) })
	temporal.Register(env, wf)
	env.ExecuteWorkflow(wf.Name(), testOrder("T3"))
	err := env.GetWorkflowError()
	if err == nil || !strings.Contains(err.Error(), "Order/Parallel/GetUserProfile") || !strings.Contains(err.Error(), "profile service down") {
		t.Fatalf("workflow error = %v, want the profile's failure", err)
	}
	if len(cancelled) != 1 || cancelled[0] != "Order/Parallel/UploadReceipt" {
		t.Errorf("cancelled activities = %q, want the upload", cancelled)
	}
}
