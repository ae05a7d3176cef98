// Package resize reduces a parallel image resizer and a copy helper: a
// WaitGroup joins goroutines that only compute, so the wait is no SIO005
// in a dependency (precision class 5 of issue 10).
package resize

import "sync"

// Image is a grey-scale image.
type Image struct {
	W, H int
	Pix  []byte
}

func scaleRows(dst, src *Image, from, to int) {
	for y := from; y < to; y++ {
		for x := 0; x < dst.W; x++ {
			dst.Pix[y*dst.W+x] = src.Pix[(y*src.H/dst.H)*src.W+x*src.W/dst.W]
		}
	}
}

// Resize scales src in parallel bands.
func Resize(src *Image, w, h int) *Image {
	dst := &Image{W: w, H: h, Pix: make([]byte, w*h)}
	var wg sync.WaitGroup
	for band := 0; band < 4; band++ {
		wg.Add(1)
		go func(from, to int) {
			defer wg.Done()
			scaleRows(dst, src, from, to)
		}(band*h/4, (band+1)*h/4)
	}
	wg.Wait()
	return dst
}

// Copy copies src to dst, in parallel chunks when asked to; the
// concurrent branch never runs with parallel false, and only copies.
func Copy(dst, src []byte, parallel bool) {
	if !parallel || len(src) < 1<<20 {
		copy(dst, src)
		return
	}
	var wg sync.WaitGroup
	half := len(src) / 2
	wg.Add(2)
	go func() { defer wg.Done(); copy(dst[:half], src[:half]) }()
	go func() { defer wg.Done(); copy(dst[half:], src[half:]) }()
	wg.Wait()
}

// Hash mixes lanes in parallel the way argon2's processBlocks does: the
// goroutines run a closure kept in a local variable, and only compute.
func Hash(lanes [][]byte) {
	mix := func(lane []byte, wg *sync.WaitGroup) {
		for i := range lane {
			lane[i] ^= byte(i)
		}
		wg.Done()
	}
	var wg sync.WaitGroup
	for _, lane := range lanes {
		wg.Add(1)
		go mix(lane, &wg)
	}
	wg.Wait()
}
