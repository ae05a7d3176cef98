package activity_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/syncio/syncio/api/activity"
)

// The machine these run on is shared, and its load drifts by 2× within a
// minute, so consecutive sub-benchmarks are not comparable. The paired
// benchmarks below alternate the variants in short rounds inside ONE
// benchmark and report each variant's ns/op and its ratio to the first
// variant: drift then hits all variants alike.

type variant struct {
	name string
	op   func() error
}

// paired runs b.N operations of every variant, in alternating rounds of
// round operations spread over conc goroutines. The ratio it reports is the
// median over rounds of (variant's round time / first variant's round time),
// which a burst of load on the machine shifts far less than the totals.
func paired(b *testing.B, conc, round int, vs []variant) {
	b.ReportAllocs()
	spent := make([]time.Duration, len(vs))
	ratios := make([][]float64, len(vs))
	var failed error
	var mu sync.Mutex
	for done := 0; done < b.N; done += round {
		n := min(round, b.N-done)
		var base time.Duration
		for i, v := range vs {
			start := time.Now()
			var wg sync.WaitGroup
			for g := range conc {
				share := n / conc
				if g < n%conc {
					share++
				}
				wg.Go(func() {
					for range share {
						if err := v.op(); err != nil {
							mu.Lock()
							failed = err
							mu.Unlock()
						}
					}
				})
			}
			wg.Wait()
			took := time.Since(start)
			spent[i] += took
			if i == 0 {
				base = took
			} else {
				ratios[i] = append(ratios[i], float64(took)/float64(base))
			}
		}
	}
	if failed != nil {
		b.Fatal(failed)
	}
	b.ReportMetric(0, "ns/op") // the per-variant figures below are the result
	for i, v := range vs {
		b.ReportMetric(float64(spent[i].Nanoseconds())/float64(b.N), v.name+"-ns/op")
		if i > 0 {
			b.ReportMetric(median(ratios[i]), v.name+"/"+vs[0].name)
		}
	}
}

// BenchmarkTrackingPaired: Sequence-of-5 with tracking none, health and
// basic, into a Buffered ring, single goroutine (per-core figures).
func BenchmarkTrackingPaired(b *testing.B) {
	var vs []variant
	for _, p := range []struct {
		name    string
		profile activity.Profile
	}{{"none", activity.ProfileNone}, {"health", activity.ProfileHealth}, {"basic", activity.ProfileBasic}} {
		buf := activity.NewBuffered(activity.NewRing(1024), 1<<16)
		b.Cleanup(buf.Close)
		wf := sequenceOf(5, activity.WithTracking(buf, p.profile))
		vs = append(vs, variant{p.name, func() error { _, err := wf.Run(ctx, activity.Unlimited{}, 0); return err }})
	}
	paired(b, 1, 500, vs)
}

// BenchmarkCompositionPaired: the PurchaseOrder scenario, hand-coded vs
// workflow (and workflow with tracking), 8 orders in flight.
func BenchmarkCompositionPaired(b *testing.B) {
	validate := backend(func(po purchaseOrder) verdict { return verdict{OK: po.Amount > 0, Detail: "validated"} })
	defer validate.Close()
	fill := backend(func(po purchaseOrder) verdict { return verdict{OK: true, Detail: "shipped " + po.ID} })
	defer fill.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 256}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	po := purchaseOrder{ID: "po-1", Customer: "c-1", Amount: 42}

	check := func(v verdict, err error) error {
		if err == nil && v.Detail != "shipped po-1" {
			err = fmt.Errorf("unexpected verdict %+v", v)
		}
		return err
	}
	vs := []variant{{"plain", func() error {
		v, err := call(ctx, hc, validate.URL, po)
		if err != nil || !v.OK {
			return err
		}
		return check(call(ctx, hc, fill.URL, po))
	}}}
	for _, p := range []struct {
		name    string
		profile activity.Profile
	}{{"workflow", activity.ProfileNone}, {"health", activity.ProfileHealth}, {"basic", activity.ProfileBasic}} {
		buf := activity.NewBuffered(activity.NewRing(1024), 1<<16)
		defer buf.Close()
		wf := activity.New("PurchaseOrder", purchaseOrderTree(hc, validate.URL, fill.URL), activity.WithTracking(buf, p.profile))
		vs = append(vs, variant{p.name, func() error { return check(wf.Run(ctx, activity.Unlimited{}, po)) }})
	}
	paired(b, 8, 64, vs)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
