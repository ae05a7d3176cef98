package aggregate

import (
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Window is a half-open interval [From, To) of wall-clock time.
type Window struct{ From, To time.Time }

// Len is the window's length.
func (w Window) Len() time.Duration { return w.To.Sub(w.From) }

// Windows sorts results into per-step accumulators by completion time.
type Windows struct {
	Windows []Window
	Steps   []*Step // one per window
	Outside int     // results outside every window (warm-up, settling)
}

// NewWindows returns accumulators for the given windows.
func NewWindows(ws []Window) *Windows {
	w := &Windows{Windows: ws, Steps: make([]*Step, len(ws))}
	for i := range w.Steps {
		w.Steps[i] = &Step{}
	}
	return w
}

// Add counts r in the window containing its completion time, if any, and
// returns that window's index or -1.
func (w *Windows) Add(r *vegeta.Result) int {
	end := r.End()
	for i, win := range w.Windows {
		if !end.Before(win.From) && end.Before(win.To) {
			w.Steps[i].Add(r)
			return i
		}
	}
	w.Outside++
	return -1
}

// AddSent counts an open-loop request in the window containing its send
// time at, late behind the pacer's schedule; atCap, that its answer came
// with the in-flight cap reached, goes to the window of its completion
// end. Either may be outside every window.
func (w *Windows) AddSent(at, end time.Time, late time.Duration, atCap bool) {
	for i, win := range w.Windows {
		if !at.Before(win.From) && at.Before(win.To) {
			w.Steps[i].AddSent(late)
		}
		if atCap && !end.Before(win.From) && end.Before(win.To) {
			w.Steps[i].AtCap++
		}
	}
}
