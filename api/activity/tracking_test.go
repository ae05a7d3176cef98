package activity

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

func trackedWorkflow(t Tracker, p Profile, fail bool) *Workflow[int, int] {
	return New("Tracked", func(s *Scope, in Var[int], out Var[int]) Activity {
		return Sequence("Root",
			Do("A", func(context.Context) error { return nil }),
			Do("B", func(context.Context) error {
				if fail {
					return errBoom
				}
				return nil
			}),
		)
	}, WithTracking(t, p))
}

func kinds(evs []Event) string {
	var b strings.Builder
	for _, ev := range evs {
		b.WriteString(ev.Kind.String())
		if ev.Activity != "" {
			b.WriteString("(" + ev.Activity + ")")
		}
		b.WriteString(" ")
	}
	return strings.TrimSpace(b.String())
}

func TestTrackingProfiles(t *testing.T) {
	cases := []struct {
		profile Profile
		fail    bool
		want    string
	}{
		{ProfileNone, false, ""},
		{ProfileHealth, false, "workflow_started workflow_completed"},
		{ProfileHealth, true, "workflow_started workflow_faulted"},
		{ProfileBasic, false, "workflow_started activity_executing(Root) activity_executing(Root/A) activity_closed(Root/A) " +
			"activity_executing(Root/B) activity_closed(Root/B) activity_closed(Root) workflow_completed"},
		{ProfileBasic, true, "workflow_started activity_executing(Root) activity_executing(Root/A) activity_closed(Root/A) " +
			"activity_executing(Root/B) activity_faulted(Root/B) activity_faulted(Root) workflow_faulted"},
	}
	for _, c := range cases {
		ring := NewRing(64)
		_, _ = trackedWorkflow(ring, c.profile, c.fail).Run(context.Background(), Unlimited{}, 0)
		evs := ring.Events()
		if got := kinds(evs); got != c.want {
			t.Errorf("profile %d fail %v:\n got %s\nwant %s", c.profile, c.fail, got, c.want)
		}
		for _, ev := range evs {
			if ev.Workflow != "Tracked" || ev.Instance != 1 || ev.Time.IsZero() {
				t.Errorf("event fields: %+v", ev)
			}
			if (ev.Kind == WorkflowFaulted || ev.Kind == ActivityFaulted) != (ev.Err != nil) {
				t.Errorf("Err on %v = %v", ev.Kind, ev.Err)
			}
		}
	}
}

func TestRingKeepsNewest(t *testing.T) {
	r := NewRing(3)
	for i := range 5 {
		r.Track(Event{Instance: uint64(i)})
	}
	evs := r.Events()
	if len(evs) != 3 || evs[0].Instance != 2 || evs[2].Instance != 4 {
		t.Errorf("ring = %+v, want instances 2,3,4", evs)
	}
}

// blockingSink stands in for a slow sink: it takes no event until released.
type blockingSink struct {
	release chan struct{}
	got     chan Event
}

func (b *blockingSink) Track(ev Event) {
	<-b.release
	b.got <- ev
}

func TestBufferedNeverBlocksAndCountsDrops(t *testing.T) {
	sink := &blockingSink{release: make(chan struct{}), got: make(chan Event, 100)}
	buf := NewBuffered(sink, 4)
	wf := trackedWorkflow(buf, ProfileBasic, false)
	// 10 runs × 8 events into a sink that takes nothing: the runs must
	// still finish, and what did not fit is dropped and counted.
	for range 10 {
		if _, err := wf.Run(context.Background(), Unlimited{}, 0); err != nil {
			t.Fatal(err)
		}
	}
	close(sink.release)
	buf.Close()
	delivered := uint64(len(sink.got))
	if buf.Dropped() == 0 || delivered == 0 || delivered+buf.Dropped() != 80 {
		t.Errorf("delivered %d + dropped %d, want 80 with some of each", delivered, buf.Dropped())
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(buf.Collector())
	if got := counterValue(t, reg, "syncio_tracking_dropped_total", ""); got != float64(buf.Dropped()) {
		t.Errorf("dropped counter = %v, want %d", got, buf.Dropped())
	}
}

func TestMetricsCountHealthEvents(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	m, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	ok, bad := trackedWorkflow(m, ProfileBasic, false), trackedWorkflow(m, ProfileHealth, true)
	for range 3 {
		_, _ = ok.Run(context.Background(), Unlimited{}, 0)
	}
	_, _ = bad.Run(context.Background(), Unlimited{}, 0)
	if got := counterValue(t, reg, "syncio_workflows_started_total", "Tracked"); got != 4 {
		t.Errorf("started = %v, want 4", got)
	}
	if got := counterValue(t, reg, "syncio_workflows_completed_total", "Tracked"); got != 3 {
		t.Errorf("completed = %v, want 3", got)
	}
	if got := counterValue(t, reg, "syncio_workflows_faulted_total", "Tracked"); got != 1 {
		t.Errorf("faulted = %v, want 1", got)
	}
	if _, err := NewMetrics(reg); err == nil {
		t.Error("registering twice should fail")
	}
}

func TestLoggerAndMulti(t *testing.T) {
	var out bytes.Buffer
	l := NewLogger(slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug})))
	ring := NewRing(8)
	_, err := trackedWorkflow(Multi{l, ring}, ProfileHealth, true).Run(context.Background(), Unlimited{}, 0)
	if !errors.Is(err, errBoom) {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"msg=workflow_started", "level=WARN msg=workflow_faulted", `error="Root/B: boom"`} {
		if !strings.Contains(text, want) {
			t.Errorf("log lacks %q:\n%s", want, text)
		}
	}
	if len(ring.Events()) != 2 {
		t.Errorf("ring got %d events, want 2", len(ring.Events()))
	}
}

// counterValue reads a counter from reg; workflow selects the label value
// ("" for an unlabelled counter).
func counterValue(t *testing.T, reg *prometheus.Registry, name, workflow string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			label := ""
			for _, lp := range m.GetLabel() {
				if lp.GetName() == "workflow" {
					label = lp.GetValue()
				}
			}
			if label == workflow {
				return m.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no %s{workflow=%q}", name, workflow)
	return 0
}

func TestBufferedTrackDropsWhenFull(t *testing.T) {
	sink := &blockingSink{release: make(chan struct{}), got: make(chan Event, 100)}
	buf := NewBuffered(sink, 4)
	for i := range 10 {
		buf.Track(Event{Instance: uint64(i)}) // must not block although the sink takes nothing
	}
	close(sink.release)
	buf.Close()
	delivered := uint64(len(sink.got))
	// At most one drain (4 events) can have left the buffer before the sink
	// blocked it, so at least 10-4-4 events were dropped.
	if buf.Dropped() < 2 || delivered+buf.Dropped() != 10 {
		t.Errorf("delivered %d, dropped %d; want >=2 dropped and 10 in all", delivered, buf.Dropped())
	}
	if first := <-sink.got; first.Instance != 0 {
		t.Errorf("first delivered = %d, want 0 (FIFO)", first.Instance)
	}
}

// TestBufferedPathOrderedAndStamped runs workflows whose tracker is a
// Buffered (the compact-record path) and checks that every event arrives,
// in order, with its path, error, instance and a time from the coarse
// clock: never before the Buffered existed, never after the run returned,
// and never going backwards within a run.
func TestBufferedPathOrderedAndStamped(t *testing.T) {
	for _, fail := range []bool{false, true} {
		before := time.Now()
		ring := NewRing(64)
		buf := NewBuffered(ring, 64)
		wf := trackedWorkflow(buf, ProfileBasic, fail)
		for range 2 {
			_, _ = wf.Run(context.Background(), Unlimited{}, 0)
		}
		after := time.Now()
		buf.Close()
		evs := ring.Events()
		want := "workflow_started activity_executing(Root) activity_executing(Root/A) activity_closed(Root/A) " +
			"activity_executing(Root/B) activity_closed(Root/B) activity_closed(Root) workflow_completed"
		if fail {
			want = "workflow_started activity_executing(Root) activity_executing(Root/A) activity_closed(Root/A) " +
				"activity_executing(Root/B) activity_faulted(Root/B) activity_faulted(Root) workflow_faulted"
		}
		if len(evs) != 16 {
			t.Fatalf("fail=%v: got %d events, want 16: %s", fail, len(evs), kinds(evs))
		}
		for run, part := range [][]Event{evs[:8], evs[8:]} {
			if got := kinds(part); got != want {
				t.Errorf("fail=%v run %d:\n got %s\nwant %s", fail, run+1, got, want)
			}
			for i, ev := range part {
				if ev.Workflow != "Tracked" || ev.Instance != uint64(run+1) {
					t.Errorf("event %d: workflow %q instance %d, want Tracked %d", i, ev.Workflow, ev.Instance, run+1)
				}
				if ev.Time.Before(before.Truncate(time.Microsecond)) || ev.Time.After(after) {
					t.Errorf("event %d stamped %v, outside [%v, %v]", i, ev.Time, before, after)
				}
				if i > 0 && ev.Time.Before(part[i-1].Time) {
					t.Errorf("event %d stamped %v, before event %d (%v)", i, ev.Time, i-1, part[i-1].Time)
				}
				if faulted := ev.Kind == WorkflowFaulted || ev.Kind == ActivityFaulted; faulted != (ev.Err != nil) {
					t.Errorf("event %d (%v): Err = %v", i, ev.Kind, ev.Err)
				} else if faulted && (!errors.Is(ev.Err, errBoom) || !strings.HasPrefix(ev.Err.Error(), "Root/B: ")) {
					t.Errorf("event %d (%v): Err = %v, want Root/B: boom", i, ev.Kind, ev.Err)
				}
			}
		}
	}
}

// TestLongRunHandsOverInBatches: a run with more events than a batch holds
// hands them over in several batches (the While below makes 4 per pass),
// still complete and in order.
func TestLongRunHandsOverInBatches(t *testing.T) {
	const passes = 3 * flushAt
	ring := NewRing(8 * passes)
	buf := NewBuffered(ring, 8*passes)
	wf := New("Long", func(s *Scope, in Var[int], out Var[int]) Activity {
		return While("Loop", Expr[bool](func(e *Env) bool { return out.Get(e) < passes }),
			Code("Inc", out, out, func(_ context.Context, n int) (int, error) { return n + 1, nil }))
	}, WithTracking(buf, ProfileBasic))
	if n, err := wf.Run(context.Background(), Unlimited{}, 0); err != nil || n != passes {
		t.Fatalf("Run = %d, %v", n, err)
	}
	buf.Close()
	evs := ring.Events()
	// started, Loop executing, passes × (Inc executing, Inc closed), Loop closed, completed
	if len(evs) != 2*passes+4 || buf.Dropped() != 0 {
		t.Fatalf("got %d events (%d dropped), want %d", len(evs), buf.Dropped(), 2*passes+4)
	}
	for i := 2; i < len(evs)-2; i += 2 {
		if evs[i].Kind != ActivityExecuting || evs[i+1].Kind != ActivityClosed || evs[i].Activity != "Loop/Inc" {
			t.Fatalf("events %d,%d = %v %v(%s)", i, i+1, evs[i].Kind, evs[i+1].Kind, evs[i].Activity)
		}
	}
	if evs[0].Kind != WorkflowStarted || evs[len(evs)-1].Kind != WorkflowCompleted {
		t.Errorf("first %v, last %v", evs[0].Kind, evs[len(evs)-1].Kind)
	}
}

// TestPutKeepsErrorsWithTheirRecords fills a Buffered past its limit with
// faulted records and checks that the records kept still carry their own
// errors. No goroutines: the test drains by hand.
func TestPutKeepsErrorsWithTheirRecords(t *testing.T) {
	ring := NewRing(16)
	b := &Buffered{limit: 3, next: ring}
	o := &origin{workflow: "W", paths: []string{"", "W/A", "W/B"}}
	from := b.register(o)
	e1, e2 := errors.New("one"), errors.New("two")
	b.put(from, 7, []rec{{at: 1, act: 1, kind: ActivityFaulted}, {at: 2, act: 0, kind: WorkflowFaulted}}, []error{e1, e2})
	// Only one of these fits: the closed record, without the error of the faulted one.
	b.put(from, 8, []rec{{at: 3, act: 2, kind: ActivityClosed}, {at: 4, act: 1, kind: ActivityFaulted}}, []error{e1})
	if b.Dropped() != 1 {
		t.Errorf("dropped %d, want 1", b.Dropped())
	}
	var sp spares
	if n := b.drain(&sp); n != 3 {
		t.Errorf("drain found %d events, want 3", n)
	}
	evs := ring.Events()
	if len(evs) != 3 {
		t.Fatalf("got %d events, want 3", len(evs))
	}
	want := []Event{
		{Kind: ActivityFaulted, Workflow: "W", Instance: 7, Activity: "W/A", Err: e1, Time: time.Unix(0, 1)},
		{Kind: WorkflowFaulted, Workflow: "W", Instance: 7, Err: e2, Time: time.Unix(0, 2)},
		{Kind: ActivityClosed, Workflow: "W", Instance: 8, Activity: "W/B", Time: time.Unix(0, 3)},
	}
	for i := range want {
		if evs[i] != want[i] {
			t.Errorf("event %d = %+v, want %+v", i, evs[i], want[i])
		}
	}
	// The next drain must not deliver anything twice.
	b.put(from, 9, []rec{{at: 5, act: 0, kind: WorkflowCompleted}}, nil)
	b.drain(&sp)
	if evs := ring.Events(); len(evs) != 4 || evs[3].Instance != 9 {
		t.Errorf("after second drain: %d events, last %+v", len(evs), evs[len(evs)-1])
	}
}

// TestDirectTrackerStampedAtHandOver: without a Buffered there is no coarse
// clock, so a run's events are stamped when the run hands them over.
func TestDirectTrackerStampedAtHandOver(t *testing.T) {
	ring := NewRing(16)
	before := time.Now()
	_, _ = trackedWorkflow(Multi{ring}, ProfileBasic, false).Run(context.Background(), Unlimited{}, 0)
	after := time.Now()
	evs := ring.Events()
	if len(evs) != 8 {
		t.Fatalf("got %d events, want 8", len(evs))
	}
	for i, ev := range evs {
		if ev.Time.Before(before.Truncate(time.Microsecond)) || ev.Time.After(after) {
			t.Errorf("event %d stamped %v, outside [%v, %v]", i, ev.Time, before, after)
		}
	}
}

func TestClockOf(t *testing.T) {
	buf := NewBuffered(NewRing(1), 1)
	defer buf.Close()
	if clockOf(buf) != &buf.clock || clockOf(Multi{NewRing(1), buf}) != &buf.clock {
		t.Error("a Buffered, alone or in a Multi, should stamp the events")
	}
	if clockOf(NewRing(1)) != &noClock || clockOf(Multi{NewRing(1)}) != &noClock {
		t.Error("a tracker with no Buffered should get noClock")
	}
	buf.Close()
	if buf.clock.Load() != 0 {
		t.Error("a closed Buffered's clock should read 0, so runs stamp at hand-over")
	}
}

// TestHealthCostsNoAllocation: a health run carries its two events in its
// own allocation, so it allocates exactly as often as an untracked run.
func TestHealthCostsNoAllocation(t *testing.T) {
	buf := NewBuffered(NewRing(1), 1<<12)
	defer buf.Close()
	allocs := func(p Profile) float64 {
		wf := trackedWorkflow(buf, p, false)
		return testing.AllocsPerRun(200, func() { _, _ = wf.Run(context.Background(), Unlimited{}, 0) })
	}
	if none, health := allocs(ProfileNone), allocs(ProfileHealth); health != none {
		t.Errorf("allocs per run: health %v, none %v", health, none)
	}
}

func TestRingTrackBatchWraps(t *testing.T) {
	r := NewRing(4)
	batch := func(from, n int) []Event {
		evs := make([]Event, n)
		for i := range evs {
			evs[i].Instance = uint64(from + i)
		}
		return evs
	}
	check := func(want ...uint64) {
		t.Helper()
		evs := r.Events()
		got := make([]uint64, len(evs))
		for i, ev := range evs {
			got[i] = ev.Instance
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("ring = %v, want %v", got, want)
		}
	}
	r.TrackBatch(batch(1, 3))
	check(1, 2, 3)
	r.TrackBatch(batch(4, 3)) // wraps
	check(3, 4, 5, 6)
	r.TrackBatch(batch(7, 1)) // fills to the end exactly
	check(4, 5, 6, 7)
	r.TrackBatch(batch(8, 9)) // longer than the ring: the newest 4
	check(13, 14, 15, 16)
}

// A failed registration leaves nothing of the set behind.
func TestNewMetricsRegistersAllOrNothing(t *testing.T) {
	reg := prometheus.NewRegistry()
	// Same shape as NewMetrics' own counter: a registry keeps a name's label
	// dimensions for its lifetime, so only an identical clash can go away.
	clash := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "syncio_workflows_faulted_total", Help: "Workflow runs that faulted."}, []string{"workflow"})
	reg.MustRegister(clash)
	if _, err := NewMetrics(reg); err == nil {
		t.Fatal("NewMetrics succeeded although syncio_workflows_faulted_total was taken")
	}
	reg.Unregister(clash)
	if _, err := NewMetrics(reg); err != nil {
		t.Fatalf("after the clash is gone NewMetrics = %v; the first attempt left counters registered", err)
	}
}
