package activity_test

// Benchmarks after the WF4 paper's component-level tests. Every shape has a
// "workflow" and a "plain" sub-benchmark: the same work hand-coded in plain
// Go, so ratios come from one run on the same (shared, noisy) machine.
//
//	go test -run '^$' -bench . -benchmem -count 3 ./api/activity/

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/syncio/syncio/api/activity"
)

var (
	ctx  = context.Background()
	sink int
	// work is the unit of work of every leaf activity and of the baselines.
	// Calling it through a variable keeps the compiler from removing the
	// baselines' loops.
	work = func(n int) int { return n + 1 }
)

// inc is a Code activity doing one unit of work on counter.
func inc(name string, counter activity.Var[int]) activity.Activity {
	return activity.Code(name, counter, counter, func(_ context.Context, n int) (int, error) { return work(n), nil })
}

func runWF[I, O any](b *testing.B, wf *activity.Workflow[I, O], in I) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := wf.Run(ctx, activity.Unlimited{}, in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "wf/s")
}

func BenchmarkEmpty(b *testing.B) {
	wf := activity.New("Empty", func(s *activity.Scope, in activity.Var[int], out activity.Var[int]) activity.Activity {
		return activity.Sequence("Empty")
	})
	b.Run("workflow", func(b *testing.B) { runWF(b, wf, 0) })
	b.Run("plain", func(b *testing.B) {
		f := func(context.Context, int) (int, error) { return 0, nil }
		fp := &f
		for b.Loop() {
			n, _ := (*fp)(ctx, 0)
			sink += n
		}
	})
}

func BenchmarkSingleActivity(b *testing.B) {
	wf := activity.New("Single", func(s *activity.Scope, in activity.Var[int], out activity.Var[int]) activity.Activity {
		return activity.Code("A", in, out, func(_ context.Context, n int) (int, error) { return work(n), nil })
	})
	b.Run("workflow", func(b *testing.B) { runWF(b, wf, 0) })
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			sink += work(0)
		}
	})
}

func sequenceOf(n int, opts ...activity.Option) *activity.Workflow[int, int] {
	return activity.New("Sequence", func(s *activity.Scope, in activity.Var[int], out activity.Var[int]) activity.Activity {
		acts := make([]activity.Activity, n)
		for i := range acts {
			acts[i] = inc(fmt.Sprint("Step", i), out)
		}
		return activity.Sequence("Sequence", acts...)
	}, opts...)
}

func BenchmarkSequence5(b *testing.B) {
	wf := sequenceOf(5)
	b.Run("workflow", func(b *testing.B) { runWF(b, wf, 0) })
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			n := 0
			for range 5 {
				n = work(n)
			}
			sink += n
		}
	})
}

func BenchmarkWhile1000(b *testing.B) {
	wf := activity.New("While", func(s *activity.Scope, in activity.Var[int], out activity.Var[int]) activity.Activity {
		return activity.While("Loop", activity.Expr[bool](func(e *activity.Env) bool { return out.Get(e) < 1000 }), inc("Inc", out))
	})
	b.Run("workflow", func(b *testing.B) { runWF(b, wf, 0) })
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			n := 0
			for n < 1000 {
				n = work(n)
			}
			sink += n
		}
	})
}

func BenchmarkParallelForEach100(b *testing.B) {
	items := make([]int, 100)
	for i := range items {
		items[i] = i
	}
	wf := activity.New("ForEach", func(s *activity.Scope, in activity.Var[[]int], out activity.Var[int]) activity.Activity {
		return activity.ParallelForEach("Each", in, func(_ *activity.Scope, item activity.Var[int]) activity.Activity {
			return activity.Code("Add", activity.Expr[int](func(e *activity.Env) int { return out.Get(e) + work(item.Get(e)) }), out,
				func(_ context.Context, v int) (int, error) { return v, nil })
		})
	})
	b.Run("workflow", func(b *testing.B) { runWF(b, wf, items) })
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			n := 0
			for _, it := range items {
				n += work(it)
			}
			sink += n
		}
	})
}

// BenchmarkParallelForEachAsync100 gives each item an async activity, so the
// workflow really starts 100 concurrent waits; the baseline is the usual
// goroutine-per-item fan-out with a WaitGroup.
func BenchmarkParallelForEachAsync100(b *testing.B) {
	items := make([]int, 100)
	wf := activity.New("ForEachAsync", func(s *activity.Scope, in activity.Var[[]int], out activity.Var[int]) activity.Activity {
		return activity.ParallelForEach("Each", in, func(bs *activity.Scope, item activity.Var[int]) activity.Activity {
			return activity.AsyncIO("IO", item, activity.Discard[int](), func(_ context.Context, n int) (int, error) { return work(n), nil })
		})
	})
	b.Run("workflow", func(b *testing.B) { runWF(b, wf, items) })
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var wg sync.WaitGroup
			res := make([]int, len(items))
			for i, it := range items {
				wg.Go(func() { res[i] = work(it) })
			}
			wg.Wait()
			sink += res[0]
		}
	})
}

var errFail = errors.New("fail")

func BenchmarkCompensation(b *testing.B) {
	wf := activity.New("Compensation", func(s *activity.Scope, in activity.Var[int], out activity.Var[int]) activity.Activity {
		return activity.Sequence("Trip",
			activity.Compensable("Flight", inc("Book", out), inc("Cancel", out)),
			activity.Compensable("Hotel", inc("Book", out), inc("Cancel", out)),
			activity.Do("Pay", func(context.Context) error { return errFail }),
		)
	})
	b.Run("workflow", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := wf.Run(ctx, activity.Unlimited{}, 0); !errors.Is(err, errFail) {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		pay := func() error { return errFail }
		b.ReportAllocs()
		for b.Loop() {
			n := 0
			var undo []func()
			n = work(n)
			undo = append(undo, func() { n = work(n) })
			n = work(n)
			undo = append(undo, func() { n = work(n) })
			if err := pay(); err != nil {
				for i := len(undo) - 1; i >= 0; i-- {
					undo[i]()
				}
			}
			sink += n
		}
	})
}

func BenchmarkNestedSequences100(b *testing.B) {
	wf := activity.New("Nested", func(s *activity.Scope, in activity.Var[int], out activity.Var[int]) activity.Activity {
		a := inc("Leaf", out)
		for i := range 100 {
			a = activity.Sequence(fmt.Sprint("S", i), a)
		}
		return a
	})
	var nest func(depth, n int) int
	nest = func(depth, n int) int {
		if depth == 0 {
			return work(n)
		}
		return nest(depth-1, n)
	}
	b.Run("workflow", func(b *testing.B) { runWF(b, wf, 0) })
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			sink += nest(100, 0)
		}
	})
}

// complexTree builds the paper's generated workflow: a sequence of `width`
// activities per level, each a leaf at the bottom level and otherwise a
// nested sequence (every other one behind an If), `depth` levels deep.
func complexTree(depth, width int, out activity.Var[int], id *int) activity.Activity {
	*id++
	name := fmt.Sprint("N", *id)
	if depth == 0 {
		return inc(name, out)
	}
	kids := make([]activity.Activity, width)
	for i := range kids {
		kid := complexTree(depth-1, width, out, id)
		if i%2 == 1 {
			*id++
			kid = activity.If(fmt.Sprint("If", *id), activity.Const(true), kid, nil)
		}
		kids[i] = kid
	}
	return activity.Sequence(name, kids...)
}

func plainTree(depth, width, n int) int {
	if depth == 0 {
		return work(n)
	}
	for i := range width {
		if i%2 == 1 && !alwaysTrue {
			continue
		}
		n = plainTree(depth-1, width, n)
	}
	return n
}

var alwaysTrue = true

func BenchmarkComplex(b *testing.B) {
	for _, shape := range []struct{ depth, width int }{{2, 5}, {3, 5}, {4, 3}} {
		wf := activity.New("Complex", func(s *activity.Scope, in activity.Var[int], out activity.Var[int]) activity.Activity {
			id := 0
			return complexTree(shape.depth, shape.width, out, &id)
		})
		b.Run(fmt.Sprintf("depth=%d,width=%d/workflow", shape.depth, shape.width), func(b *testing.B) { runWF(b, wf, 0) })
		b.Run(fmt.Sprintf("depth=%d,width=%d/plain", shape.depth, shape.width), func(b *testing.B) {
			for b.Loop() {
				sink += plainTree(shape.depth, shape.width, 0)
			}
		})
	}
}

// BenchmarkTracking is the tracking cost on Sequence-of-5: the events go
// through a Buffered (the non-blocking path a real sink uses) into a Ring.
func BenchmarkTracking(b *testing.B) {
	for _, p := range []struct {
		name    string
		profile activity.Profile
	}{{"none", activity.ProfileNone}, {"health", activity.ProfileHealth}, {"basic", activity.ProfileBasic}} {
		b.Run(p.name, func(b *testing.B) {
			buf := activity.NewBuffered(activity.NewRing(1024), 1<<16)
			defer buf.Close()
			runWF(b, sequenceOf(5, activity.WithTracking(buf, p.profile)), 0)
			b.ReportMetric(float64(buf.Dropped())/float64(b.N), "dropped/op")
		})
	}
}

// Service composition: an online store's PurchaseOrder calls a validation
// service and then, if the order is valid, a fulfilment service, both over
// HTTP on loopback. The workflow and the hand-coded orchestration make the
// same calls with the same client.

type purchaseOrder struct {
	ID       string `json:"id"`
	Customer string `json:"customer"`
	Amount   int    `json:"amount"`
}

type verdict struct {
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

func backend(decide func(purchaseOrder) verdict) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var po purchaseOrder
		if err := json.NewDecoder(r.Body).Decode(&po); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(decide(po))
	}))
}

func call(ctx context.Context, hc *http.Client, url string, po purchaseOrder) (verdict, error) {
	body, err := json.Marshal(po)
	if err != nil {
		return verdict{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return verdict{}, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return verdict{}, err
	}
	defer resp.Body.Close()
	var v verdict
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return verdict{}, fmt.Errorf("decode %s: %w", url, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body) // drain so the connection is reused
	return v, nil
}

func BenchmarkComposition(b *testing.B) {
	validate := backend(func(po purchaseOrder) verdict { return verdict{OK: po.Amount > 0, Detail: "validated"} })
	defer validate.Close()
	fill := backend(func(po purchaseOrder) verdict { return verdict{OK: true, Detail: "shipped " + po.ID} })
	defer fill.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 256}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	po := purchaseOrder{ID: "po-1", Customer: "c-1", Amount: 42}

	wf := activity.New("PurchaseOrder", purchaseOrderTree(hc, validate.URL, fill.URL))
	plain := func(ctx context.Context, po purchaseOrder) (verdict, error) {
		v, err := call(ctx, hc, validate.URL, po)
		if err != nil || !v.OK {
			return verdict{}, err
		}
		return call(ctx, hc, fill.URL, po)
	}
	check := func(b *testing.B, v verdict, err error) {
		if err != nil || v.Detail != "shipped po-1" {
			b.Errorf("got %+v, %v", v, err)
		}
	}
	run := func(name string, once func() (verdict, error)) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetParallelism(4) // 4×GOMAXPROCS orders in flight, as on a loaded server
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					v, err := once()
					check(b, v, err)
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "orders/s")
		})
	}
	run("plain", func() (verdict, error) { return plain(ctx, po) })
	run("workflow", func() (verdict, error) { return wf.Run(ctx, activity.Unlimited{}, po) })

	// Tracking cost where activities do real work.
	for _, p := range []struct {
		name    string
		profile activity.Profile
	}{{"health", activity.ProfileHealth}, {"basic", activity.ProfileBasic}} {
		buf := activity.NewBuffered(activity.NewRing(1024), 1<<16)
		tracked := activity.New("PurchaseOrder", purchaseOrderTree(hc, validate.URL, fill.URL), activity.WithTracking(buf, p.profile))
		run("workflow-tracking-"+p.name, func() (verdict, error) { return tracked.Run(ctx, activity.Unlimited{}, po) })
		buf.Close()
	}
}

func purchaseOrderTree(hc *http.Client, validateURL, fillURL string) func(*activity.Scope, activity.Var[purchaseOrder], activity.Var[verdict]) activity.Activity {
	return func(s *activity.Scope, in activity.Var[purchaseOrder], out activity.Var[verdict]) activity.Activity {
		valid := activity.Declare[verdict](s, "valid")
		return activity.Sequence("PurchaseOrder",
			activity.AsyncIO("ValidateOrder", in, valid, func(ctx context.Context, po purchaseOrder) (verdict, error) {
				return call(ctx, hc, validateURL, po)
			}),
			activity.If("IfValid", activity.Expr[bool](func(e *activity.Env) bool { return valid.Get(e).OK }),
				activity.AsyncIO("FillOrder", in, out, func(ctx context.Context, po purchaseOrder) (verdict, error) {
					return call(ctx, hc, fillURL, po)
				}), nil),
		)
	}
}
