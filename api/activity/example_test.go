package activity_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/syncio/syncio/api/activity"
)

// catalogue is a callback-style client: Lookup starts a request and returns
// at once; the answer arrives later on a timer, as a network reply would.
type catalogue struct{ prices map[string]int }

func (c catalogue) Lookup(sku string, reply func(cents int, err error)) {
	time.AfterFunc(time.Millisecond, func() {
		p, ok := c.prices[sku]
		if !ok {
			reply(0, fmt.Errorf("unknown sku %q", sku))
			return
		}
		reply(p, nil)
	})
}

type lookupResult struct {
	cents int
	err   error
}

// PriceLookup is a custom async activity. Begin runs on the worker: it
// checks the input and starts the request. The returned wait runs with no
// worker held until the reply arrives (or ctx ends). End runs on the worker
// again and produces the output.
func PriceLookup(name string, c catalogue, sku activity.Arg[string], price activity.Out[int]) activity.Activity {
	return activity.Async(name, sku, price, activity.AsyncOp[string, lookupResult, int]{
		Begin: func(ctx context.Context, sku string) (func(context.Context) (lookupResult, error), error) {
			if sku == "" {
				return nil, errors.New("empty sku")
			}
			replies := make(chan lookupResult, 1) // buffered: a late reply never blocks the timer
			c.Lookup(sku, func(cents int, err error) { replies <- lookupResult{cents, err} })
			return func(ctx context.Context) (lookupResult, error) {
				select {
				case r := <-replies:
					return r, nil
				case <-ctx.Done():
					return lookupResult{}, ctx.Err()
				}
			}, nil
		},
		End: func(_ context.Context, r lookupResult) (int, error) { return r.cents, r.err },
	})
}

func Example_customAsyncActivity() {
	shop := catalogue{prices: map[string]int{"pen": 150, "ink": 999}}
	type pair struct{ A, B string }

	wf := activity.New("Quote", func(s *activity.Scope, in activity.Var[pair], out activity.Var[int]) activity.Activity {
		a := activity.Declare[int](s, "a")
		b := activity.Declare[int](s, "b")
		return activity.Sequence("Quote",
			// Both lookups are in flight at once, and neither holds a worker.
			activity.Parallel("Lookups",
				PriceLookup("A", shop, activity.Expr[string](func(e *activity.Env) string { return in.Get(e).A }), a),
				PriceLookup("B", shop, activity.Expr[string](func(e *activity.Env) string { return in.Get(e).B }), b),
			),
			activity.Code("Sum", activity.Expr[int](func(e *activity.Env) int { return a.Get(e) + b.Get(e) }), out,
				func(_ context.Context, total int) (int, error) { return total, nil }),
		)
	})

	ctx := context.Background()
	total, err := wf.Run(ctx, activity.Unlimited{}, pair{"pen", "ink"})
	fmt.Println(total, err)
	_, err = wf.Run(ctx, activity.Unlimited{}, pair{"pen", "cap"})
	fmt.Println(err)
	_, err = wf.Run(ctx, activity.Unlimited{}, pair{"", "ink"})
	fmt.Println(err)
	// Output:
	// 1149 <nil>
	// Quote/Lookups/B: unknown sku "cap"
	// Quote/Lookups/A: empty sku
}
