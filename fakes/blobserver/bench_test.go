package blobserver_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/syncio/syncio/fakes/blobserver"
)

// BenchmarkUploadBuffer64KiB measures SDK round trips (one Put Blob each) against the fake
// over loopback, the shape of the demo's upload endpoints.
func BenchmarkUploadBuffer64KiB(b *testing.B) {
	s := blobserver.New(blobserver.WithMaxBytes(0))
	if err := s.Start("127.0.0.1:0"); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	client, err := azblob.NewClientFromConnectionString(s.ConnectionString(), nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := client.CreateContainer(ctx, "bench", nil); err != nil {
		b.Fatal(err)
	}
	data := bytes.Repeat([]byte("syncio!!"), 8<<10)
	b.SetBytes(int64(len(data)))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			// One blob name keeps memory flat: each upload replaces the last.
			if _, err := client.UploadBuffer(ctx, "bench", "blob", data, nil); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
