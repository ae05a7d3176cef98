package blockwatch

import "math"

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.96

// ratio is a share estimated from samples: Σblocked / Σrequest over the
// samples in which the route had requests, each term weighted by the time
// its sample stands for, with the sums its standard error needs. Each
// sample is one instant of the whole process, so its goroutines are not
// independent draws: the error comes from how the per-sample figures
// spread, the ratio estimator's linearisation, not from a goroutine count
// that would make a 41-sample share look exact.
type ratio struct {
	n                int64
	b, r, bb, rr, br float64
}

// add folds in one sample's weighted blocked and request goroutine-seconds.
func (x *ratio) add(blocked, request float64) {
	x.n++
	x.b += blocked
	x.r += request
	x.bb += blocked * blocked
	x.rr += request * request
	x.br += blocked * request
}

// margin is the half-width of the share's 95% interval, in share units
// (0.05 is 5 points), or false with fewer than two samples, where the
// spread is not known.
func (x *ratio) margin() (float64, bool) {
	if x.n < 2 || x.r <= 0 {
		return 0, false
	}
	share := x.b / x.r
	// Σ(b_i − share·r_i)², expanded so that no sample need be kept.
	ss := max(x.bb-2*share*x.br+share*share*x.rr, 0)
	n := float64(x.n)
	se := math.Sqrt(n/(n-1)*ss) / x.r
	return min(z95*se, 1), true
}

// marginPtr is margin as a pointer, nil when unknown.
func (x *ratio) marginPtr() *float64 {
	m, ok := x.margin()
	if !ok {
		return nil
	}
	return &m
}
