package api

import (
	"errors"
	"net/http"
	"testing"
)

// FuzzUploadParams: whatever a client puts in ?size= and Content-Length,
// the size is either rejected (400 invalid_size, 413 too_large) or within
// 1..limit, and the admission hold is positive and never more than the
// streaming buffers, so no declaration can reserve, or make the server
// allocate, more than an upload can hold. The seeds run in every go test.
func FuzzUploadParams(f *testing.F) {
	for _, s := range []string{"1", "4096", "0", "-1", "", "x", "33554432", "9223372036854775807", "9223372036854775808", "+5", " 5", "1e3", "0x10"} {
		f.Add(s, int64(0), int64(32<<20))
		f.Add(s, int64(33554432), int64(1<<20))
	}
	f.Add("7", int64(-1), int64(10))
	f.Fuzz(func(t *testing.T, raw string, contentLength, limit int64) {
		if limit < 1 {
			return // MaxUploadBytes is always positive after withDefaults
		}
		tooLarge := &requestError{http.StatusRequestEntityTooLarge, codeTooLarge, "too large"}
		n, err := parseSize(raw, limit, tooLarge)
		var re *requestError
		switch {
		case err == nil:
			if n < 1 || n > limit {
				t.Fatalf("parseSize(%q, %d) = %d, outside 1..limit", raw, limit, n)
			}
		case !errors.As(err, &re) || (re.code != codeInvalidSize && re.code != codeTooLarge):
			t.Fatalf("parseSize(%q) error %v, want invalid_size or too_large", raw, err)
		}
		if contentLength < -1 {
			return // net/http never reports less than -1
		}
		if h := admissionHold(contentLength, raw); h < 1 || h > uploadMaxBuffered {
			t.Fatalf("admissionHold(%d, %q) = %d, outside 1..%d", contentLength, raw, h, uploadMaxBuffered)
		}
	})
}
