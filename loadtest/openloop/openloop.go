package openloop

import (
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/syncio/syncio/loadtest/closedloop"
)

// Attack sends one Target at a rate that SetRate changes.
type Attack struct {
	target closedloop.Target
	client *http.Client
	emit   func(*vegeta.Result, Sent)
	// maxWorkers bounds the requests in flight: an open loop against a
	// service that stops answering would otherwise grow without end.
	maxWorkers uint64

	// bodies numbers the requests given to Target.BodyFor.
	bodies atomic.Uint64
	// inFlight counts requests sent and not yet emitted.
	inFlight atomic.Int64

	mu      sync.Mutex
	current *vegeta.Attacker
	done    sync.WaitGroup
}

// Sent is what the open loop knows of one request besides its result.
type Sent struct {
	// Late is how long after its place in the pacer's schedule the request
	// left: the pacer falls behind when the generator is short of CPU or
	// every worker waits for an answer.
	Late time.Duration
	// AtCap says the requests in flight were at the cap (New's maxInFlight)
	// when this one's answer came: the pacer could not send more until an
	// answer freed a worker.
	AtCap bool
}

// New returns an Attack sending nothing until SetRate. emit receives every
// result, from the attack's goroutines. maxInFlight bounds the requests
// outstanding at once (vegeta's -max-workers).
func New(t closedloop.Target, client *http.Client, maxInFlight int, emit func(*vegeta.Result, Sent)) *Attack {
	return &Attack{target: t, client: client, emit: emit, maxWorkers: uint64(max(maxInFlight, 1))}
}

// SetRate stops the current arrivals and starts perSecond requests a
// second (0 stops). Requests already sent finish and are emitted.
func (a *Attack) SetRate(perSecond float64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.current != nil {
		a.current.Stop()
		a.current = nil
	}
	if perSecond <= 0 {
		return
	}
	atk := vegeta.NewAttacker(vegeta.Client(a.client), vegeta.MaxWorkers(a.maxWorkers), vegeta.Workers(min(a.maxWorkers, 10)))
	// vegeta's pacer counts hits per Per: a fractional rate becomes whole
	// hits per a longer period.
	pacer := vegeta.ConstantPacer{Freq: int(perSecond), Per: time.Second}
	if perSecond != float64(int(perSecond)) {
		pacer = vegeta.ConstantPacer{Freq: int(perSecond * 1000), Per: 1000 * time.Second}
	}
	// The constant pacer's n-th hit (Seq n) is due at began + n×interval;
	// began is vegeta's, taken inside Attack, so it is a little later than
	// this one, which errs toward a request looking late, never early.
	began := time.Now()
	interval := pacer.Per / time.Duration(pacer.Freq)
	results := atk.Attack(a.targeter(), pacer, 0, a.target.Attack)
	a.current = atk
	a.done.Go(func() {
		for r := range results {
			atCap := a.inFlight.Load() >= int64(a.maxWorkers)
			a.inFlight.Add(-1)
			a.emit(r, Sent{Late: max(r.Timestamp.Sub(began.Add(time.Duration(r.Seq)*interval)), 0), AtCap: atCap})
		}
	})
}

// targeter repeats the Target, with a body of its own per request when
// Target.BodyFor is set. The count goes on across SetRate calls, so no two
// requests of the attack share a body.
func (a *Attack) targeter() vegeta.Targeter {
	static := vegeta.Target{Method: a.target.Method, URL: a.target.URL, Header: a.target.Header, Body: a.target.Body}
	return func(t *vegeta.Target) error {
		// vegeta calls the targeter once per hit, before the request.
		a.inFlight.Add(1)
		*t = static
		if a.target.BodyFor != nil {
			t.Body = a.target.BodyFor(a.bodies.Add(1) - 1)
		}
		return nil
	}
}

// Stop ends the arrivals and waits for every request in flight.
func (a *Attack) Stop() {
	a.SetRate(0)
	a.done.Wait()
}
