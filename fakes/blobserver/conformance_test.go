package blobserver_test

import (
	"testing"

	"github.com/syncio/syncio/fakes/blobserver"
	"github.com/syncio/syncio/fakes/blobserver/storagetest"
)

func TestConformanceFake(t *testing.T) {
	srv := blobserver.New()
	if err := srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	storagetest.Conformance(t, srv.ConnectionString())
}

func TestConformanceAzurite(t *testing.T) {
	storagetest.Conformance(t, storagetest.AzuriteConnectionString(t))
}
