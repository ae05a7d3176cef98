// Package qr reduces boombuler/barcode's byte pipeline: a receive from an
// in-memory generator goroutine.
package qr

func bytesOf(data []byte) <-chan byte {
	ch := make(chan byte)
	go func() {
		for _, b := range data {
			ch <- b
		}
		close(ch)
	}()
	return ch
}

func blocks(ch <-chan byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = <-ch
	}
	return out
}

// Encode returns the encoded bytes of s.
func Encode(s string) []byte { return blocks(bytesOf([]byte(s)), len(s)) }
