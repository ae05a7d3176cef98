package schedule

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestRamp(t *testing.T) {
	cases := []struct {
		start, inc, max int
		want            []int
	}{
		{1, 1000, 4000, []int{1, 1000, 2000, 3000, 4000}},
		{1, 400, 4000, []int{1, 400, 800, 1200, 1600, 2000, 2400, 2800, 3200, 3600, 4000}},
		{1, 400, 1000, []int{1, 400, 800}},
		{500, 400, 1300, []int{500, 800, 1200}},
		{5, 0, 100, []int{5}},
	}
	for _, c := range cases {
		if got := Ramp(c.start, c.inc, c.max); !slices.Equal(got, c.want) {
			t.Errorf("Ramp(%d, %d, %d) = %v, want %v", c.start, c.inc, c.max, got, c.want)
		}
	}
}

func TestPlanWindows(t *testing.T) {
	p := Profile{
		Name: "t", Warmup: 3 * time.Second, Users: []int{1, 10, 20},
		Settle: 2 * time.Second, Measure: 5 * time.Second,
		TopSettleBlocking: 30 * time.Second, TopSettleAsync: 4 * time.Second, TopMeasure: 10 * time.Second,
	}
	for _, blocking := range []bool{false, true} {
		plan, err := p.Plan(blocking)
		if err != nil {
			t.Fatal(err)
		}
		topSettle := p.TopSettleAsync
		if blocking {
			topSettle = p.TopSettleBlocking
		}
		want := []Step{
			{Index: 0, Users: 1, Start: 0, Window: Window{3 * time.Second, 3 * time.Second}, End: 3 * time.Second},
			{Index: 1, Users: 1, Start: 3 * time.Second, Window: Window{5 * time.Second, 10 * time.Second}, End: 10 * time.Second},
			{Index: 2, Users: 10, Start: 10 * time.Second, Window: Window{12 * time.Second, 17 * time.Second}, End: 17 * time.Second},
			{Index: 3, Users: 20, Start: 17 * time.Second, Window: Window{17*time.Second + topSettle, 27*time.Second + topSettle}, End: 27*time.Second + topSettle},
		}
		if !slices.Equal(plan.Steps, want) {
			t.Errorf("blocking=%v: plan\n%+v\nwant\n%+v", blocking, plan.Steps, want)
		}
		if got := plan.Duration(); got != want[3].End {
			t.Errorf("Duration = %v, want %v", got, want[3].End)
		}
		if m := plan.Measured(); len(m) != 3 || m[0].Index != 1 {
			t.Errorf("Measured = %+v, want the three non-warm-up steps", m)
		}
	}
}

func TestPlanAt(t *testing.T) {
	p := Profile{Users: []int{1, 5}, Settle: time.Second, Measure: time.Second, TopSettleAsync: time.Second, TopMeasure: 2 * time.Second}
	plan, err := p.Plan(false)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		at       time.Duration
		index    int
		measured bool
	}{
		{0, 1, false},
		{1500 * time.Millisecond, 1, true},
		{2 * time.Second, 2, false},
		{3 * time.Second, 2, true},
		{time.Hour, 2, false},
	}
	for _, c := range cases {
		s, in := plan.At(c.at)
		if s.Index != c.index || in != c.measured {
			t.Errorf("At(%v) = step %d, measured %v; want step %d, %v", c.at, s.Index, in, c.index, c.measured)
		}
	}
}

func TestValidate(t *testing.T) {
	good := Quick()
	if err := good.Validate(); err != nil {
		t.Fatalf("quick profile: %v", err)
	}
	if err := Full().Validate(); err != nil {
		t.Fatalf("full profile: %v", err)
	}
	cases := map[string]func(*Profile){
		"empty":            func(p *Profile) { p.Users = nil },
		"decreasing":       func(p *Profile) { p.Users = []int{1, 10, 5} },
		"zero users":       func(p *Profile) { p.Users = []int{0, 10} },
		"no top window":    func(p *Profile) { p.TopMeasure = 0 },
		"no step window":   func(p *Profile) { p.Measure = 0 },
		"negative warm-up": func(p *Profile) { p.Warmup = -time.Second },
	}
	for name, mutate := range cases {
		p := Quick()
		mutate(&p)
		if err := p.Validate(); err == nil {
			t.Errorf("%s: no error", name)
		}
		if _, err := p.Plan(false); err == nil {
			t.Errorf("%s: Plan accepted it", name)
		}
	}
	if _, err := ByName("fast"); err == nil || !strings.Contains(err.Error(), "quick or full") {
		t.Errorf("ByName(fast) error = %v", err)
	}
}

func TestQuickProfileIsAboutThreeMinutes(t *testing.T) {
	q := Quick()
	sync, _ := q.Plan(true)
	async, _ := q.Plan(false)
	total := sync.Duration() + async.Duration()
	if total > 200*time.Second || total < 150*time.Second {
		t.Errorf("quick sync+async plans last %v, want about 3 minutes", total)
	}
	if top := sync.Steps[len(sync.Steps)-1]; top.Users != 4000 || top.Window.Len() != 20*time.Second {
		t.Errorf("quick top step = %+v, want 4000 users and a 20 s window", top)
	}
}
