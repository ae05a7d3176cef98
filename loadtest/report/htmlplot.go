package report

import (
	"fmt"
	"io"
	"math/bits"

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
// vegeta's plot expects each attack's sequence numbers to run 0, 1, 2, ...
// without gaps, and buffers anything after a gap for ever. Our users drop
// the results of requests cut short at the end of a scenario, which leaves
// gaps, so each file is read twice: once to note which sequence numbers are
// present, then to renumber them densely in the same order.
func WritePlot(w io.Writer, title string, sources []PlotSource) error {
	p := plot.New(plot.Title(title), plot.Downsample(plotPoints))
	for _, src := range sources {
		present := map[string]*seqSet{}
		err := EachResult(src.Path, func(r *vegeta.Result) error {
			s := present[r.Attack]
			if s == nil {
				s = &seqSet{}
				present[r.Attack] = s
			}
			s.add(r.Seq)
			return nil
		})
		if err != nil {
			return err
		}
		for _, s := range present {
			s.index()
		}
		err = EachResult(src.Path, func(r *vegeta.Result) error {
			r.Seq = present[r.Attack].rank(r.Seq)
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

// seqSet is a bitset of sequence numbers with rank queries.
type seqSet struct {
	words  []uint64
	before []uint64 // set bits in all earlier words
}

func (s *seqSet) add(seq uint64) {
	w := int(seq / 64)
	for len(s.words) <= w {
		s.words = append(s.words, 0)
	}
	s.words[w] |= 1 << (seq % 64)
}

func (s *seqSet) index() {
	s.before = make([]uint64, len(s.words))
	var n uint64
	for i, w := range s.words {
		s.before[i] = n
		n += uint64(bits.OnesCount64(w))
	}
}

// rank is the number of present sequence numbers below seq.
func (s *seqSet) rank(seq uint64) uint64 {
	w := int(seq / 64)
	mask := uint64(1)<<(seq%64) - 1
	return s.before[w] + uint64(bits.OnesCount64(s.words[w]&mask))
}
