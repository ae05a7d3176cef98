package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	"github.com/tsenart/vegeta/v12/lib/plot"
)

// PlotSource is one result file for the HTML plot; Attack, when set,
// replaces the attack name (to tell machines apart when merging).
type PlotSource struct {
	Path   string
	Attack string
}

// plotPoints caps each plotted series; the plot downsamples (LTTB) to it.
const plotPoints = 4000

// WritePlot writes vegeta's HTML latency plot of the given result files.
//
// vegeta's plot takes each attack's results in sequence-number order, 0, 1,
// 2, ... without gaps (it buffers anything after a gap for ever), and
// fails on a send time earlier than the one before it. Our files break
// both: users drop the results of requests cut short at the end of a
// scenario, which leaves gaps, and the open loop starts a new vegeta
// attacker at every step, whose numbers start again at 0. So each file is
// read twice: once to note every result's send time, then to number the
// results densely in send-time order, which is an order the plot accepts
// whatever the file's.
func WritePlot(w io.Writer, title string, sources []PlotSource) error {
	p := plot.New(plot.Title(title), plot.Downsample(plotPoints))
	for _, src := range sources {
		order := map[string]*sendOrder{}
		err := EachResult(src.Path, func(r *vegeta.Result) error {
			o := order[r.Attack]
			if o == nil {
				o = &sendOrder{}
				order[r.Attack] = o
			}
			o.add(r.Timestamp.UnixNano())
			return nil
		})
		if err != nil {
			return err
		}
		for _, o := range order {
			o.index()
		}
		err = EachResult(src.Path, func(r *vegeta.Result) error {
			r.Seq = order[r.Attack].rank()
			if src.Attack != "" {
				r.Attack = src.Attack
			}
			if err := p.Add(r); err != nil {
				return fmt.Errorf("plotting %s: %w", src.Path, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	p.Close()
	if _, err := p.WriteTo(w); err != nil {
		return fmt.Errorf("writing plot: %w", err)
	}
	return nil
}

// sendOrder numbers one attack's results by send time: the attack's j-th
// result in the file gets its place among the attack's send times, ties in
// file order.
type sendOrder struct {
	nanos []int64
	ranks []uint32
	next  int // the second pass's j
}

func (o *sendOrder) add(nanos int64) { o.nanos = append(o.nanos, nanos) }

func (o *sendOrder) index() {
	byTime := make([]uint32, len(o.nanos))
	for j := range byTime {
		byTime[j] = uint32(j)
	}
	slices.SortStableFunc(byTime, func(a, b uint32) int { return cmp.Compare(o.nanos[a], o.nanos[b]) })
	o.ranks = make([]uint32, len(byTime))
	for k, j := range byTime {
		o.ranks[j] = uint32(k)
	}
	o.nanos = nil
}

// rank is the place of the attack's next result, in file order.
func (o *sendOrder) rank() uint64 {
	r := o.ranks[o.next]
	o.next++
	return uint64(r)
}
