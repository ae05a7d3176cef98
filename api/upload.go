package api

import (
	"bufio"
	"context"
	"crypto/md5"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"
	"github.com/gin-gonic/gin"
)

// uploadResult is the 201 body of the upload endpoints. MD5 is hex, so a
// client can compare it with `md5sum` of what it reads back.
type uploadResult struct {
	Name string `json:"name"`
	Size int    `json:"size"`
	MD5  string `json:"md5"`
}

// requestError is a client error found while reading a request; it carries
// its own response so it can cross pool.Await.
type requestError struct {
	status int
	code   string
	msg    string
}

func (e *requestError) Error() string { return e.msg }

// blobNamePattern is stricter than Azure's rules (any 1–1024 characters) on
// purpose: names come from URLs, and this set needs no escaping anywhere.
// Up to three '/'-separated segments, each starting alphanumeric (so no
// "." or ".." segment), address upload names and receipts
// (receipts/ID/RUN.json).
var blobNamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,254}(/[A-Za-z0-9][A-Za-z0-9._-]{0,254}){0,2}$`)

// uploadClient returns the azblob client for this request and a function to
// call when done. ?client=per-request builds a new client over a new
// transport, so every upload dials a fresh connection and none is reused:
// the antipattern of the original sample's controllers.
func (a *app) uploadClient(c *gin.Context) (*azblob.Client, func(), error) {
	switch mode := c.DefaultQuery("client", "shared"); mode {
	case "shared":
		return a.store.client, func() {}, nil
	case "per-request":
		tr := newTransport(1)
		client, err := a.store.newClient(tr)
		if err != nil {
			return nil, nil, err
		}
		// Without this the abandoned transport's idle connection would linger
		// until IdleConnTimeout; the demo shows the cost of dialling, not a
		// socket leak.
		return client, tr.CloseIdleConnections, nil
	default:
		return nil, nil, &requestError{http.StatusBadRequest, codeInvalidClient,
			fmt.Sprintf("client %q: want shared or per-request", mode)}
	}
}

// Streaming parameters. Bodies go to storage as they arrive through
// azblob's UploadStream, which holds at most uploadConcurrency buffers of
// uploadBlockSize per call (mmap'd; only the pages a body fills become
// resident). 1 MiB blocks keep the largest upload (32 MiB by default) to 32
// Put Block calls, each one storage round trip (50 ms in the storage
// model); two buffers let one block travel to storage while the next is read
// from the client, which is all the overlap a body arriving serially allows.
// So an upload holds at most 2 MiB, whatever its Content-Length says.
//
// A body that declares at most smallUploadMax bytes skips UploadStream: it
// is read into a heap buffer of exactly its size and stored with one Put
// Blob (UploadBuffer), as UploadStream would have done for it anyway, but
// without its buffer. UploadStream maps each buffer with mmap and unmaps it
// when done, and Go's syscall.Mmap and Munmap share one process-wide mutex
// (besides the kernel's own lock on the address space): with 4000 users
// uploading 4 KiB, a goroutine profile of the API found 1001 of its 1023
// uploads in flight queued on that mutex, not on storage. 64 KiB keeps the
// heap it takes small (at most 64 MiB with every -max-inflight-uploads slot
// full of such bodies) and covers the lab's 4 KiB uploads.
const (
	uploadBlockSize   = 1 << 20
	uploadConcurrency = 2
	uploadMaxBuffered = uploadBlockSize * uploadConcurrency
	smallUploadMax    = 64 << 10
	// peekSize is what is read before deciding whether the body is empty
	// (then ?size=N applies) and before any storage buffer is taken.
	peekSize = 4 << 10
)

// upload is the body of one upload request, streamed: its size and MD5 are
// known once it has been read to the end.
type upload struct {
	r    io.Reader
	hash hash.Hash
	n    int64
	size int64 // the bytes it declared (Content-Length or ?size), or -1 when unknown (chunked)
}

func (u *upload) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	u.n += int64(n)
	_, _ = u.hash.Write(p[:n]) // hash.Hash.Write never fails
	return n, err
}

func (u *upload) result(name string) uploadResult {
	return uploadResult{Name: name, Size: int(u.n), MD5: hex.EncodeToString(u.hash.Sum(nil))}
}

// admissionHold is what an upload can hold, for the in-flight bound: what
// it declares (its Content-Length, or ?size=N for an empty body) up to the
// streaming buffers, and all of them when the size is unknown (chunked, or
// a ?size that does not parse: the request will fail, but only after
// reading its body).
func admissionHold(contentLength int64, rawSize string) int64 {
	declared := contentLength
	if declared == 0 {
		if n, err := strconv.ParseInt(rawSize, 10, 64); err == nil {
			declared = n
		}
	}
	if declared <= 0 {
		return uploadMaxBuffered
	}
	return min(declared, uploadMaxBuffered)
}

// parseSize reads ?size=N for an empty body: 1 ≤ N ≤ limit.
func parseSize(raw string, limit int64, tooLarge *requestError) (int64, error) {
	size, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || size < 1 {
		return 0, &requestError{http.StatusBadRequest, codeInvalidSize,
			"empty body: send the bytes, or ?size=N with N >= 1 to upload N generated bytes"}
	}
	if size > limit {
		return 0, tooLarge
	}
	return size, nil
}

// openUpload returns the bytes to upload as a stream: the request body, or
// ?size=N generated bytes when the body is empty. Both are bounded by
// MaxUploadBytes; nothing is allocated from what the client declares. The
// body's read deadline (Config.BodyTimeout) is set here, per request.
func (a *app) openUpload(c *gin.Context) (*upload, error) {
	limit := a.cfg.MaxUploadBytes
	if c.Request.ContentLength > limit {
		return nil, a.tooLarge()
	}
	a.bodyDeadline(c)
	br := bufio.NewReaderSize(&bodyReader{r: http.MaxBytesReader(c.Writer, c.Request.Body, limit)}, peekSize)
	if _, err := br.Peek(1); err == nil {
		return &upload{r: br, hash: md5.New(), size: c.Request.ContentLength}, nil
	} else if !errors.Is(err, io.EOF) {
		return nil, bodyError(err, a.tooLarge())
	}
	size, err := parseSize(c.Query("size"), limit, a.tooLarge())
	if err != nil {
		return nil, err
	}
	return &upload{r: io.LimitReader(generator(), size), hash: md5.New(), size: size}, nil
}

func (a *app) tooLarge() *requestError {
	return &requestError{http.StatusRequestEntityTooLarge, codeTooLarge,
		fmt.Sprintf("upload exceeds the limit of %d bytes", a.cfg.MaxUploadBytes)}
}

// bodyReader marks errors from reading the client's body, so that
// they are told from storage's errors after UploadStream returns.
type bodyReader struct{ r io.Reader }

type bodyReadError struct{ err error }

func (e *bodyReadError) Error() string { return "reading the request body: " + e.err.Error() }
func (e *bodyReadError) Unwrap() error { return e.err }

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = &bodyReadError{err}
	}
	return n, err
}

// bodyError maps an error of reading the body to its response.
func bodyError(err error, tooLarge *requestError) error {
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		return tooLarge
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return &requestError{http.StatusRequestTimeout, codeBodyTimeout,
			"the request body did not arrive within the body deadline"}
	}
	return &requestError{http.StatusBadRequest, codeInvalidBody, "reading the request body failed: the client closed the connection or sent a malformed body"}
}

// bodyDeadline bounds how long this request may take to send its body
// (Config.BodyTimeout), separately from the server's ReadTimeout: a slow
// client loses its own request, and the worker it may hold, after it.
func (a *app) bodyDeadline(c *gin.Context) {
	// An error means the connection cannot take a deadline (HTTP/2 over a
	// test recorder); the server's ReadTimeout still bounds it.
	_ = http.NewResponseController(c.Writer).SetReadDeadline(time.Now().Add(a.cfg.BodyTimeout))
}

// generator returns a stream of pseudo-random bytes: incompressible, so
// sizes mean what they say, and cheap, so the generator is not what the
// demo measures.
func generator() io.Reader {
	var seed [32]byte
	for i := 0; i < len(seed); i += 8 {
		v := rand.Uint64()
		for j := 0; j < 8; j++ {
			seed[i+j] = byte(v >> (8 * j))
		}
	}
	return rand.NewChaCha8(seed)
}

// newBlobName returns a unique, URL-safe name.
func newBlobName() string {
	var b [16]byte
	_, _ = crand.Read(b[:]) // crypto/rand.Read never returns an error
	return "upload-" + hex.EncodeToString(b[:])
}

// storeUpload writes u to storage as blob name: in one buffer of its size
// when it declared at most smallUploadMax bytes, else streamed.
func (a *app) storeUpload(ctx context.Context, client *azblob.Client, name string, u *upload) error {
	var err error
	if u.size >= 0 && u.size <= smallUploadMax {
		buf := make([]byte, u.size)
		if _, err := io.ReadFull(u, buf); err != nil {
			var be *bodyReadError
			if errors.As(err, &be) {
				err = be.err
			}
			return bodyError(err, a.tooLarge()) // io.ErrUnexpectedEOF: the body ended early
		}
		_, err = client.UploadBuffer(ctx, a.cfg.Container, name, buf, nil)
	} else {
		_, err = client.UploadStream(ctx, a.cfg.Container, name, u, &azblob.UploadStreamOptions{
			BlockSize: uploadBlockSize, Concurrency: uploadConcurrency,
		})
	}
	var be *bodyReadError
	if errors.As(err, &be) {
		return bodyError(be.err, a.tooLarge())
	}
	return err
}

// syncUpload holds its worker while the body arrives and while the blob is
// written, and calls storage with a context that is not the request's.
func (a *app) syncUpload(c *gin.Context) {
	//syncio:ignore SIO004 -- deliberate antipattern for the demo (?client=per-request)
	client, done, err := a.uploadClient(c)
	if err != nil {
		a.respondUpload(c, "", nil, err)
		return
	}
	defer done()
	u, err := a.openUpload(c)
	if err != nil {
		a.respondUpload(c, "", nil, err)
		return
	}
	name := newBlobName()
	ctx, cancel := context.WithTimeout(context.Background(), a.cfg.UpstreamTimeout)
	defer cancel()
	//syncio:ignore SIO002 -- deliberate antipattern for the demo
	err = a.storeUpload(ctx, client, name, u)
	a.respondUpload(c, name, u, err)
}

// asyncUpload is admitted against the bound on upload bytes in flight
// (Config.MaxInflightBytes; 503 beyond it), then gives its worker back,
// waits for one of Config.MaxInflightUploads slots, and holds it while the
// body arrives and while the blob is written; the request's context, cut
// at the upstream timeout, bounds the wait and the storage call (503
// uploads_busy if the wait took all of it).
func (a *app) asyncUpload(c *gin.Context) {
	//syncio:ignore SIO004 -- deliberate antipattern for the demo (?client=per-request)
	client, done, err := a.uploadClient(c)
	if err != nil {
		a.respondUpload(c, "", nil, err)
		return
	}
	defer done()
	if c.Request.ContentLength > a.cfg.MaxUploadBytes {
		a.respondUpload(c, "", nil, a.tooLarge())
		return
	}
	hold := admissionHold(c.Request.ContentLength, c.Query("size"))
	if !a.inflight.acquire(hold) {
		c.Header("Retry-After", "1")
		abortError(c, http.StatusServiceUnavailable, codeUploadsBusy,
			"server busy: too many upload bytes in flight, retry later")
		return
	}
	defer a.inflight.release(hold)
	ctx, cancel := context.WithTimeout(c.Request.Context(), a.cfg.UpstreamTimeout)
	defer cancel()
	var (
		name string
		u    *upload
	)
	err = a.pool.Await(ctx, func(ctx context.Context) error {
		// The slot is waited for here, without a worker, and before the
		// body is read or storage called: a waiting upload holds only its
		// connection.
		if err := a.slots.acquire(ctx); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				return errNoSlot
			}
			return err
		}
		defer a.slots.release()
		var err error
		if u, err = a.openUpload(c); err != nil {
			return err
		}
		name = newBlobName()
		return a.storeUpload(ctx, client, name, u)
	})
	a.respondUpload(c, name, u, err)
}

// errNoSlot: no upload slot freed within the upstream timeout.
var errNoSlot = errors.New("no upload slot freed within the upstream timeout")

func (a *app) respondUpload(c *gin.Context, name string, u *upload, err error) {
	var reqErr *requestError
	switch {
	case err == nil:
		c.JSON(http.StatusCreated, u.result(name))
	case errors.Is(err, errNoSlot):
		c.Header("Retry-After", "1")
		abortError(c, http.StatusServiceUnavailable, codeUploadsBusy,
			"server busy: too many uploads in flight, retry later")
	case errors.As(err, &reqErr):
		abortError(c, reqErr.status, reqErr.code, reqErr.msg)
	default:
		abortUpstream(c, err, codeStorageError, "storage")
	}
}

// getBlob streams a stored blob back, so clients can verify their uploads.
// Like the async endpoints it holds no worker while waiting on storage or on
// a slow reader.
func (a *app) getBlob(c *gin.Context) {
	name := strings.TrimPrefix(c.Param("name"), "/")
	if !blobNamePattern.MatchString(name) {
		abortError(c, http.StatusBadRequest, codeInvalidName,
			"invalid blob name: want 1-3 '/'-separated segments of 1-255 characters of [A-Za-z0-9._-], each starting alphanumeric")
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), a.cfg.UpstreamTimeout)
	defer cancel()
	err := a.pool.Await(ctx, func(ctx context.Context) error {
		resp, err := a.store.client.DownloadStream(ctx, a.cfg.Container, name, nil)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		c.Header("Content-Type", "application/octet-stream")
		if resp.ContentLength != nil {
			c.Header("Content-Length", strconv.FormatInt(*resp.ContentLength, 10))
		}
		c.Status(http.StatusOK)
		if _, err := io.Copy(c.Writer, resp.Body); err != nil {
			// Headers are gone; all we can do is log and cut the response.
			a.log.Warn("blob read-back interrupted", "name", name, "request_id", c.GetString(requestIDKey), "err", err)
		}
		return nil
	})
	switch {
	case err == nil:
	case c.Writer.Written():
		// The blob went out and only getting a worker back failed (the
		// context ended): an error body now would be written after the blob.
		_ = c.Error(err)
		c.Abort()
	case bloberror.HasCode(err, bloberror.BlobNotFound, bloberror.ContainerNotFound):
		abortError(c, http.StatusNotFound, codeNotFound, "no blob named "+strconv.Quote(name))
	default:
		abortUpstream(c, err, codeStorageError, "storage")
	}
}
