package storagetest

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"
)

// Conformance runs the storage behaviour the demo relies on against the Blob endpoint in
// connectionString, through the real azblob SDK. It creates one uniquely named container
// and deletes it at the end.
func Conformance(t *testing.T, connectionString string) {
	t.Helper()
	client, err := azblob.NewClientFromConnectionString(connectionString, &azblob.ClientOptions{
		ClientOptions: azcore.ClientOptions{
			// A conforming server never needs a retry here; retries would only slow a failure.
			Retry: policy.RetryOptions{MaxRetries: -1},
		},
	})
	if err != nil {
		t.Fatalf("client from connection string: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	ctr := UniqueContainerName("conformance")
	rnd := rand.New(rand.NewPCG(1, 2))
	payload := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rnd.Uint32())
		}
		return b
	}

	t.Run("CreateContainerTwice", func(t *testing.T) {
		if _, err := client.CreateContainer(ctx, ctr, nil); err != nil {
			t.Fatalf("create container: %v", err)
		}
		_, err := client.CreateContainer(ctx, ctr, nil)
		expectError(t, err, http.StatusConflict, bloberror.ContainerAlreadyExists)
	})
	t.Cleanup(func() {
		// A fresh context: the suite's may be done. Cleanup failures only leak test data.
		cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer ccancel()
		if _, err := client.DeleteContainer(cctx, ctr, nil); err != nil {
			t.Logf("cleanup: delete container %s: %v", ctr, err)
		}
	})

	t.Run("UploadBufferThenProperties", func(t *testing.T) {
		data := payload(100_000)
		up, err := client.UploadBuffer(ctx, ctr, "small.bin", data, &azblob.UploadBufferOptions{
			HTTPHeaders: &blob.HTTPHeaders{BlobContentType: to.Ptr("application/x-syncio")},
			Metadata:    map[string]*string{"origin": to.Ptr("conformance")},
		})
		if err != nil {
			t.Fatalf("UploadBuffer: %v", err)
		}
		if up.ETag == nil || *up.ETag == "" || up.LastModified == nil || up.LastModified.IsZero() {
			t.Fatalf("upload response lacks ETag/Last-Modified: %+v", up)
		}
		props, err := client.ServiceClient().NewContainerClient(ctr).NewBlobClient("small.bin").GetProperties(ctx, nil)
		if err != nil {
			t.Fatalf("GetProperties: %v", err)
		}
		sum := md5.Sum(data)
		switch {
		case props.ContentLength == nil || *props.ContentLength != int64(len(data)):
			t.Errorf("ContentLength = %v, want %d", deref(props.ContentLength), len(data))
		case !bytes.Equal(props.ContentMD5, sum[:]):
			t.Errorf("ContentMD5 = %x, want %x", props.ContentMD5, sum)
		case deref(props.ContentType) != "application/x-syncio":
			t.Errorf("ContentType = %q", deref(props.ContentType))
		case deref(props.ETag) != *up.ETag:
			t.Errorf("ETag = %v, upload said %v", deref(props.ETag), *up.ETag)
		case props.BlobType == nil || *props.BlobType != blob.BlobTypeBlockBlob:
			t.Errorf("BlobType = %v", deref(props.BlobType))
		case deref(metaValue(props.Metadata, "origin")) != "conformance":
			t.Errorf("Metadata = %v", props.Metadata)
		}
		got := download(ctx, t, client, ctr, "small.bin")
		if !bytes.Equal(got, data) {
			t.Fatalf("downloaded %d bytes (md5 %x), want %d (md5 %x)", len(got), md5.Sum(got), len(data), sum)
		}
	})

	t.Run("UploadStreamUsesBlocks", func(t *testing.T) {
		data := payload(3<<20 + 12345) // > 1 MiB forces Put Block + Put Block List
		if _, err := client.UploadStream(ctx, ctr, "dir/large.bin", bytes.NewReader(data), &azblob.UploadStreamOptions{
			BlockSize: 1 << 20, Concurrency: 2,
		}); err != nil {
			t.Fatalf("UploadStream: %v", err)
		}
		props, err := client.ServiceClient().NewContainerClient(ctr).NewBlobClient("dir/large.bin").GetProperties(ctx, nil)
		if err != nil {
			t.Fatalf("GetProperties: %v", err)
		}
		if deref(props.ContentLength) != int64(len(data)) {
			t.Fatalf("ContentLength = %d, want %d", deref(props.ContentLength), len(data))
		}
		want := md5.Sum(data)
		if got := download(ctx, t, client, ctr, "dir/large.bin"); md5.Sum(got) != want {
			t.Fatalf("stream download md5 %x, want %x", md5.Sum(got), want)
		}
		// DownloadBuffer fetches in parallel ranges guarded by If-Match: a second read path.
		buf := make([]byte, len(data))
		n, err := client.DownloadBuffer(ctx, ctr, "dir/large.bin", buf, &azblob.DownloadBufferOptions{BlockSize: 512 << 10, Concurrency: 3})
		if err != nil {
			t.Fatalf("DownloadBuffer: %v", err)
		}
		if n != int64(len(data)) || md5.Sum(buf) != want {
			t.Fatalf("ranged download: %d bytes, md5 %x; want %d, %x", n, md5.Sum(buf), len(data), want)
		}
	})

	t.Run("RangedDownloadWithRangeMD5", func(t *testing.T) {
		data := payload(10_000)
		if _, err := client.UploadBuffer(ctx, ctr, "ranged.bin", data, nil); err != nil {
			t.Fatalf("UploadBuffer: %v", err)
		}
		resp, err := client.DownloadStream(ctx, ctr, "ranged.bin", &azblob.DownloadStreamOptions{
			Range: azblob.HTTPRange{Offset: 1000, Count: 2500}, RangeGetContentMD5: to.Ptr(true),
		})
		if err != nil {
			t.Fatalf("ranged DownloadStream: %v", err)
		}
		got := readAll(t, resp.Body)
		want := data[1000:3500]
		if !bytes.Equal(got, want) {
			t.Fatalf("range returned %d bytes, want %d matching bytes", len(got), len(want))
		}
		if sum := md5.Sum(want); !bytes.Equal(resp.ContentMD5, sum[:]) {
			t.Errorf("range Content-MD5 = %s, want %s", b64(resp.ContentMD5), b64(sum[:]))
		}
		if cr := deref(resp.ContentRange); cr != "bytes 1000-3499/10000" {
			t.Errorf("Content-Range = %q", cr)
		}
	})

	t.Run("StageAndCommitBlocksInOrder", func(t *testing.T) {
		bb := client.ServiceClient().NewContainerClient(ctr).NewBlockBlobClient("blocks.bin")
		a, b := payload(700), payload(300)
		idA := base64.StdEncoding.EncodeToString([]byte("block-000001"))
		idB := base64.StdEncoding.EncodeToString([]byte("block-000002"))
		for _, blk := range []struct {
			id   string
			data []byte
		}{{idA, a}, {idB, b}} {
			if _, err := bb.StageBlock(ctx, blk.id, nopCloser(blk.data), nil); err != nil {
				t.Fatalf("StageBlock %s: %v", blk.id, err)
			}
		}
		if _, err := bb.CommitBlockList(ctx, []string{idB, idA}, nil); err != nil {
			t.Fatalf("CommitBlockList: %v", err)
		}
		got := download(ctx, t, client, ctr, "blocks.bin")
		if want := append(append([]byte{}, b...), a...); !bytes.Equal(got, want) {
			t.Fatalf("committed blob is %d bytes, want B then A (%d bytes)", len(got), len(want))
		}
		unknown := base64.StdEncoding.EncodeToString([]byte("block-999999"))
		_, err := bb.CommitBlockList(ctx, []string{unknown}, nil)
		expectError(t, err, http.StatusBadRequest, bloberror.InvalidBlockList)
	})

	t.Run("PutBlockThenPutBlobAndDeleteLeaveNoBlob", func(t *testing.T) {
		// How the API gives back the blocks a failed upload staged: a Put Blob of 0 bytes
		// over them, then Delete Blob. Whether the blocks are gone afterwards is not
		// checked here: the fake discards them, as the service documents for Put Blob,
		// while Azurite 3.37 keeps uncommitted blocks until a commit or a container delete.
		bb := client.ServiceClient().NewContainerClient(ctr).NewBlockBlobClient("released.bin")
		id := base64.StdEncoding.EncodeToString([]byte("block-000001"))
		if _, err := bb.StageBlock(ctx, id, nopCloser(payload(1000)), nil); err != nil {
			t.Fatalf("StageBlock: %v", err)
		}
		if _, err := bb.Upload(ctx, nopCloser(nil), nil); err != nil {
			t.Fatalf("Put Blob of 0 bytes over a staged block: %v", err)
		}
		if _, err := bb.Delete(ctx, nil); err != nil {
			t.Fatalf("DeleteBlob: %v", err)
		}
		_, err := client.DownloadStream(ctx, ctr, "released.bin", nil)
		expectError(t, err, http.StatusNotFound, bloberror.BlobNotFound)
	})

	t.Run("OverwriteChangesETagAndContent", func(t *testing.T) {
		first, err := client.UploadBuffer(ctx, ctr, "over.bin", []byte("first"), nil)
		if err != nil {
			t.Fatalf("UploadBuffer: %v", err)
		}
		second, err := client.UploadBuffer(ctx, ctr, "over.bin", []byte("second!"), nil)
		if err != nil {
			t.Fatalf("UploadBuffer again: %v", err)
		}
		if deref(first.ETag) == deref(second.ETag) {
			t.Errorf("overwrite kept ETag %v", deref(first.ETag))
		}
		if got := download(ctx, t, client, ctr, "over.bin"); string(got) != "second!" {
			t.Fatalf("after overwrite read %q", got)
		}
	})

	t.Run("EmptyBlob", func(t *testing.T) {
		if _, err := client.UploadBuffer(ctx, ctr, "empty.bin", nil, nil); err != nil {
			t.Fatalf("UploadBuffer empty: %v", err)
		}
		if got := download(ctx, t, client, ctr, "empty.bin"); len(got) != 0 {
			t.Fatalf("empty blob read back %d bytes", len(got))
		}
	})

	t.Run("MissingBlob", func(t *testing.T) {
		_, err := client.DownloadStream(ctx, ctr, "no-such-blob", nil)
		expectError(t, err, http.StatusNotFound, bloberror.BlobNotFound)
		_, err = client.ServiceClient().NewContainerClient(ctr).NewBlobClient("no-such-blob").GetProperties(ctx, nil)
		expectError(t, err, http.StatusNotFound, bloberror.BlobNotFound) // from the header alone: HEAD has no body
	})

	t.Run("MissingContainer", func(t *testing.T) {
		missing := UniqueContainerName("missing")
		_, err := client.UploadBuffer(ctx, missing, "x.bin", []byte("x"), nil)
		expectError(t, err, http.StatusNotFound, bloberror.ContainerNotFound)
		_, err = client.DownloadStream(ctx, missing, "x.bin", nil)
		expectError(t, err, http.StatusNotFound, bloberror.ContainerNotFound)
	})

	t.Run("DeleteBlob", func(t *testing.T) {
		if _, err := client.UploadBuffer(ctx, ctr, "doomed.bin", []byte("bye"), nil); err != nil {
			t.Fatalf("UploadBuffer: %v", err)
		}
		if _, err := client.DeleteBlob(ctx, ctr, "doomed.bin", nil); err != nil {
			t.Fatalf("DeleteBlob: %v", err)
		}
		_, err := client.DownloadStream(ctx, ctr, "doomed.bin", nil)
		expectError(t, err, http.StatusNotFound, bloberror.BlobNotFound)
	})
}

func expectError(t *testing.T, err error, status int, code bloberror.Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("got success, want %d %s", status, code)
	}
	var re *azcore.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("error %v is not an azcore.ResponseError", err)
	}
	if re.StatusCode != status || !bloberror.HasCode(err, code) {
		t.Fatalf("got %d %q, want %d %q (%v)", re.StatusCode, re.ErrorCode, status, code, err)
	}
}

func download(ctx context.Context, t *testing.T, c *azblob.Client, ctr, name string) []byte {
	t.Helper()
	resp, err := c.DownloadStream(ctx, ctr, name, nil)
	if err != nil {
		t.Fatalf("DownloadStream %s: %v", name, err)
	}
	got := readAll(t, resp.Body)
	if resp.ContentLength == nil || *resp.ContentLength != int64(len(got)) {
		t.Fatalf("Content-Length %v, body %d bytes", deref(resp.ContentLength), len(got))
	}
	return got
}

func readAll(t *testing.T, rc io.ReadCloser) []byte {
	t.Helper()
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return b
}

type readSeekNopCloser struct{ *bytes.Reader }

func (readSeekNopCloser) Close() error { return nil }

func nopCloser(b []byte) readSeekNopCloser { return readSeekNopCloser{bytes.NewReader(b)} }

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// metaValue looks a metadata key up case-insensitively: services and SDKs differ in the
// case they hand back.
func metaValue(md map[string]*string, key string) *string {
	for k, v := range md {
		if strings.EqualFold(k, key) {
			return v
		}
	}
	return nil
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
