package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncio/syncio/fakes/blobserver"
)

// TestStorageRetriesAreWhatConfigSays: azcore reads MaxRetries 0 as "the
// default, three"; the API's "no retries" (StorageRetries negative, kept as
// 0 after defaults) must still be one try, and N retries N+1 tries.
func TestStorageRetriesAreWhatConfigSays(t *testing.T) {
	var tries atomic.Int64
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		tries.Add(1)
		w.Header().Set("x-ms-error-code", "ServerBusy")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer busy.Close()
	cs := blobserver.ConnectionStringFor(busy.URL + "/" + blobserver.AccountName)
	for _, tc := range []struct{ retries, tries int }{{0, 1}, {1, 2}, {2, 3}} {
		s := &store{connString: cs, container: "c", retries: tc.retries, tryTimeout: time.Second, transport: newTransport(1)}
		client, err := s.newClient(s.transport)
		if err != nil {
			t.Fatal(err)
		}
		tries.Store(0)
		if _, err := client.UploadBuffer(context.Background(), "c", "b", []byte("x"), nil); err == nil {
			t.Fatal("upload into a busy storage succeeded")
		}
		if got := tries.Load(); got != int64(tc.tries) {
			t.Errorf("retries %d: %d tries, want %d", tc.retries, got, tc.tries)
		}
		s.close()
	}
}

// TestStagedExpiry: the embedded store discards uncommitted blocks after
// blobserver's default unless told otherwise; negative keeps them.
func TestStagedExpiry(t *testing.T) {
	for _, tc := range []struct{ set, want time.Duration }{
		{0, blobserver.DefaultStagedBlockExpiry},
		{time.Minute, time.Minute},
		{-1, 0},
	} {
		if got := (Config{StorageStagedExpiry: tc.set}).StagedExpiry(); got != tc.want {
			t.Errorf("StorageStagedExpiry %v: blobserver gets %v, want %v", tc.set, got, tc.want)
		}
	}
}
