package blobserver

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// TestIndexMemoryPerBlob reports what one blob costs in memory (the bytes are on disk), the
// figure behind DefaultMaxBlobs. Run with -v to see it; it fails only far above the estimate.
func TestIndexMemoryPerBlob(t *testing.T) {
	if testing.Short() {
		t.Skip("stores 100 000 blobs")
	}
	s := New(WithDir(t.TempDir()))
	defer s.Close()
	now := time.Now()
	if _, err := s.store.createContainer("c", nil, now); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const n = 100_000
	for i := range n {
		// The name and properties of an API upload: "upload-" + 32 hex digits, octet-stream.
		name := fmt.Sprintf("upload-%032x", i)
		if _, err := s.store.putBytes("c", name, []byte{1}, blobProps{contentType: "application/octet-stream", contentMD5: make([]byte, 16)}, now); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / n
	t.Logf("%.0f bytes of heap per blob", per)
	if per > 2048 {
		t.Fatalf("%.0f bytes of heap per blob: the index is much larger than DefaultMaxBlobs assumes", per)
	}
}
