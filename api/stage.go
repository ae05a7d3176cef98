package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/streaming"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"

	"github.com/syncio/syncio/blockwatch"
)

// stageUpload writes a body of any size as a block blob: blocks of
// uploadBlockSize staged with at most uploadConcurrency in flight, then one
// Put Block List. It exists instead of azblob's UploadStream for one reason:
// the RoundTripper contract lets net/http's write loop go on reading a
// request body after RoundTrip has returned, so storage that answers a Put
// Block before reading it (a full store's 507, a 503) leaves a goroutine
// copying from the block's buffer after the SDK call is over. UploadStream
// unmaps its buffers when it returns, and that copy then faults (SIGSEGV,
// fatal, Azure/azure-sdk-for-go#21555). Here every block is a heap buffer
// of its own that nothing frees or reuses: the write loop's reference keeps
// it alive, and the garbage collector takes it when the last reader is done.
//
// The memory bound is the same as before: at most uploadConcurrency buffers
// per upload are held for staging, plus one per storage connection whose
// write loop outlives its answer (StorageConns bounds those).
func (a *app) stageUpload(ctx context.Context, client *azblob.Client, name string, u *upload) error {
	blob := client.ServiceClient().NewContainerClient(a.cfg.Container).NewBlockBlobClient(name)
	var (
		wg     sync.WaitGroup
		slots  = make(chan struct{}, uploadConcurrency)
		ids    []string
		staged atomic.Bool
		// readErr is the body's: it is the answer even when staging
		// failed too, since a failed read (the client's deadline, a
		// closed connection) also ends the request's context.
		readErr error
		// A failed block stops the reading, but the blocks in flight are
		// let finish rather than cancelled: a cancelled Put Block may
		// still land in storage after the release below, and stay staged
		// until storage expires it.
		mu       sync.Mutex
		stageErr error
		stop     = make(chan struct{})
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if stageErr == nil {
			stageErr = err
			close(stop)
		}
	}
	stopped := func() bool {
		select {
		case <-stop:
			return true
		default:
			return ctx.Err() != nil
		}
	}
	for i := 0; ; i++ {
		waitStart := time.Now()
		select {
		case slots <- struct{}{}:
		case <-stop:
		case <-ctx.Done():
		}
		// Time spent waiting for storage to take a block is not the
		// client's: its body deadline moves by as much.
		u.waitedOnStorage(time.Since(waitStart))
		if stopped() {
			break
		}
		buf := make([]byte, a.blockLen(u, int64(i)))
		n, err := io.ReadFull(u, buf)
		// io.ReadFull's own EOF and ErrUnexpectedEOF are the end of the
		// bytes; the body's errors come wrapped (bodyReadError), and one
		// of them is an ErrUnexpectedEOF: a body that ended before its
		// Content-Length, which must fail, not commit a shorter blob.
		var be *bodyReadError
		if errors.As(err, &be) || err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			<-slots
			readErr = err
			break
		}
		if n == 0 && i > 0 {
			<-slots
			break
		}
		if i == 0 && n < len(buf) {
			// The whole body fits in one block: one Put Blob, as
			// UploadStream did, and nothing staged to clean up.
			<-slots
			_, err := client.UploadBuffer(ctx, a.cfg.Container, name, buf[:n], nil)
			return err
		}
		id := blockID(i)
		ids = append(ids, id)
		wg.Add(1)
		go func(block []byte) {
			// The goroutine inherits the request's labels, which say it
			// holds a worker; the request's own goroutine holds it (and
			// waits below). With them the run-time watcher, which counts
			// goroutines in own code, counted three per upload holding
			// one worker (this one per block in flight, and the request's).
			if u.request != nil {
				blockwatch.Drop(u.request, workerResource)
			}
			defer wg.Done()
			defer func() { <-slots }()
			if _, err := blob.StageBlock(ctx, id, streaming.NopCloser(bytes.NewReader(block)), nil); err != nil {
				fail(err)
				return
			}
			staged.Store(true)
		}(buf[:n])
		if n < len(buf) {
			break // the body ended inside this block
		}
	}
	wg.Wait()
	err := readErr
	if err == nil {
		err = stageErr
	}
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		_, err = blob.CommitBlockList(ctx, ids, nil)
	}
	if err != nil && staged.Load() {
		a.releaseStaged(client, name)
	}
	return err
}

// blockLen is the buffer for block i: uploadBlockSize, or less when the
// body declared its size and less remains, so a 100 KiB body allocates
// 100 KiB, not a whole block.
func (a *app) blockLen(u *upload, i int64) int64 {
	if u.size < 0 {
		return uploadBlockSize
	}
	// One byte more than what remains, so that a body that ends where it
	// said it would is seen to end without another read.
	rest := u.size - i*uploadBlockSize + 1
	return max(min(rest, uploadBlockSize), 1)
}

// blockID is block i's ID. Azure wants every ID of a blob the same length
// before base64, and at most 64 bytes.
func blockID(i int) string {
	return base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "syncio-block-%08d", i))
}

// releaseTimeout bounds the clean-up of a failed upload's staged blocks.
const releaseTimeout = 10 * time.Second

// releaseStaged frees the blocks a failed upload staged, which nothing will
// ever commit: a Put Blob of no bytes discards a blob's uncommitted blocks
// (in Azure, Azurite and the embedded store alike), and the delete removes
// the empty blob it leaves. Names are unique per request, so nothing else
// can be writing it. It runs detached from the request, which has its
// answer already, and is bounded; the store's own expiry of uncommitted
// blocks is the backstop when storage cannot be reached now.
func (a *app) releaseStaged(client *azblob.Client, name string) {
	a.cleanups.Add(1)
	go func() {
		defer a.cleanups.Done()
		ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
		defer cancel()
		if _, err := client.UploadBuffer(ctx, a.cfg.Container, name, nil, nil); err != nil {
			a.log.Warn("staged blocks of a failed upload not released; the store's expiry will", "name", name, "err", err)
			return
		}
		if _, err := client.DeleteBlob(ctx, a.cfg.Container, name, nil); err != nil {
			a.log.Warn("empty blob of a failed upload not deleted", "name", name, "err", err)
		}
	}()
}
