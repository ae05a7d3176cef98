package activity

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

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
