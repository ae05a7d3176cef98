package schedule

import (
	"errors"
	"fmt"
	"time"
)

// Profile describes a step-load shape independently of any scenario.
type Profile struct {
	Name string
	// Warmup runs the first step's user count, unmeasured, before the steps.
	Warmup time.Duration
	// Users lists the user count of each step; it must not decrease.
	Users []int
	// Settle and Measure split every step but the last.
	Settle, Measure time.Duration
	// TopSettleBlocking and TopSettleAsync are the last step's settle time
	// for scenarios that hold a worker while waiting (sync-like) and for
	// those that do not (async).
	TopSettleBlocking, TopSettleAsync time.Duration
	// TopMeasure is the last step's measured window.
	TopMeasure time.Duration
}

// Quick is a profile of about three minutes for sync against async: 10 s
// steps at 1/1000/2000/3000 users, then 4000 users with a settle long
// enough for the sync queue to reach steady state and a 20 s window.
func Quick() Profile {
	return Profile{
		Name:              "quick",
		Warmup:            5 * time.Second,
		Users:             Ramp(1, 1000, 4000),
		Settle:            4 * time.Second,
		Measure:           6 * time.Second,
		TopSettleBlocking: 50 * time.Second,
		TopSettleAsync:    10 * time.Second,
		TopMeasure:        20 * time.Second,
	}
}

// Full is the original article's profile: 1 user, +400 users every 60 s up
// to 4000, after a 30 s warm-up. The last step is held longer so the sync
// queue reaches steady state before its window.
func Full() Profile {
	return Profile{
		Name:              "full",
		Warmup:            30 * time.Second,
		Users:             Ramp(1, 400, 4000),
		Settle:            20 * time.Second,
		Measure:           40 * time.Second,
		TopSettleBlocking: 90 * time.Second,
		TopSettleAsync:    20 * time.Second,
		TopMeasure:        60 * time.Second,
	}
}

// ByName returns a built-in profile.
func ByName(name string) (Profile, error) {
	switch name {
	case "quick":
		return Quick(), nil
	case "full":
		return Full(), nil
	}
	return Profile{}, fmt.Errorf("unknown profile %q (want quick or full)", name)
}

// Ramp returns the user counts start, step, 2*step, ... up to max: the
// first step is start (the article's single user), and the k-th step is
// k*increment, so a 1000-user increment gives 1, 1000, 2000, ....
func Ramp(start, increment, max int) []int {
	users := []int{start}
	if increment <= 0 {
		return users
	}
	for u := increment; u <= max; u += increment {
		if u > start {
			users = append(users, u)
		}
	}
	return users
}

// Validate reports a profile that cannot be planned.
func (p Profile) Validate() error {
	var errs []error
	if len(p.Users) == 0 {
		errs = append(errs, errors.New("no steps: the user list is empty"))
	}
	for i, u := range p.Users {
		if u < 1 {
			errs = append(errs, fmt.Errorf("step %d has %d users; every step needs at least 1", i+1, u))
		}
		if i > 0 && u < p.Users[i-1] {
			errs = append(errs, fmt.Errorf("step %d has %d users, fewer than step %d (%d); steps may only add users", i+1, u, i, p.Users[i-1]))
		}
	}
	if p.Warmup < 0 || p.Settle < 0 || p.TopSettleBlocking < 0 || p.TopSettleAsync < 0 {
		errs = append(errs, errors.New("warm-up and settle times must not be negative"))
	}
	if len(p.Users) > 1 && p.Measure <= 0 {
		errs = append(errs, errors.New("the measured window of each step must be positive"))
	}
	if p.TopMeasure <= 0 {
		errs = append(errs, errors.New("the top step's measured window must be positive"))
	}
	return errors.Join(errs...)
}

// Step is one planned step. Offsets are from the start of the scenario.
type Step struct {
	Index  int // 1-based; 0 is the warm-up
	Users  int
	Start  time.Duration // users are added here
	Window Window        // results completing in it are measured
	End    time.Duration
}

// Warmup reports whether the step is the unmeasured warm-up.
func (s Step) Warmup() bool { return s.Index == 0 }

// Window is a half-open interval [From, To) of offsets from the scenario start.
type Window struct{ From, To time.Duration }

// Contains reports whether offset d falls inside the window.
func (w Window) Contains(d time.Duration) bool { return d >= w.From && d < w.To }

// Len is the window's length.
func (w Window) Len() time.Duration { return w.To - w.From }

// Plan is the timed sequence of steps for one scenario.
type Plan struct {
	Steps []Step // the warm-up first when there is one
}

// Plan builds the timed steps for one scenario; blocking selects the top
// step's longer settle.
func (p Profile) Plan(blocking bool) (Plan, error) {
	if err := p.Validate(); err != nil {
		return Plan{}, err
	}
	var plan Plan
	var t time.Duration
	if p.Warmup > 0 {
		plan.Steps = append(plan.Steps, Step{Index: 0, Users: p.Users[0], Start: 0, Window: Window{p.Warmup, p.Warmup}, End: p.Warmup})
		t = p.Warmup
	}
	for i, u := range p.Users {
		settle, measure := p.Settle, p.Measure
		if i == len(p.Users)-1 {
			settle, measure = p.TopSettleAsync, p.TopMeasure
			if blocking {
				settle = p.TopSettleBlocking
			}
		}
		s := Step{Index: i + 1, Users: u, Start: t}
		s.Window = Window{From: t + settle, To: t + settle + measure}
		s.End = s.Window.To
		plan.Steps = append(plan.Steps, s)
		t = s.End
	}
	return plan, nil
}

// Duration is the plan's total length.
func (pl Plan) Duration() time.Duration {
	if len(pl.Steps) == 0 {
		return 0
	}
	return pl.Steps[len(pl.Steps)-1].End
}

// Measured returns the steps with a measured window (all but the warm-up).
func (pl Plan) Measured() []Step {
	out := make([]Step, 0, len(pl.Steps))
	for _, s := range pl.Steps {
		if !s.Warmup() {
			out = append(out, s)
		}
	}
	return out
}

// At returns the step running at offset d (the last one after the end) and
// whether d lies inside that step's measured window.
func (pl Plan) At(d time.Duration) (Step, bool) {
	for _, s := range pl.Steps {
		if d < s.End {
			return s, s.Window.Contains(d)
		}
	}
	if len(pl.Steps) == 0 {
		return Step{}, false
	}
	return pl.Steps[len(pl.Steps)-1], false
}
