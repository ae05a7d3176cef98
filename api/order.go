package api

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"
	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/syncio/syncio/api/activity"
	"github.com/syncio/syncio/api/activity/order"
	"github.com/syncio/syncio/fakes/profile"
)

// maxOrderBytes bounds an order body. MaxItems lines of JSON fit easily.
const maxOrderBytes = 64 << 10

const (
	codeInvalidOrder  = "invalid_order"
	codeOrderConflict = "order_conflict"
)

// orderWorkflows holds the two order workflows, built once at start-up,
// and what the order routes share.
type orderWorkflows struct {
	sync, async *activity.Workflow[order.Order, order.Confirmation]
	// reads bounds the order bodies being read before admission: the
	// worker pool no longer does. See readOrder.
	reads     chan struct{}
	readsFull prometheus.Counter
	// orphans retries the deletion of receipts whose compensation failed.
	orphans *orphans
}

// maxOrderReads is how many order bodies may be arriving at once. Each
// holds at most maxOrderBytes while it arrives, so together at most 64 MiB.
const maxOrderReads = 1024

// named relabels workflow events, so the sync and async workflows (both
// called "Order" by order.New) count separately in the shared counters.
type named struct {
	name string
	next activity.Tracker
}

func (n named) Track(ev activity.Event) {
	ev.Workflow = n.name
	n.next.Track(ev)
}

// newOrderWorkflows builds both workflows over the app's profile service and
// shared storage client, with health tracking into reg.
func (a *app) newOrderWorkflows(reg prometheus.Registerer) (*orderWorkflows, error) {
	m, err := activity.NewMetrics(reg)
	if err != nil {
		return nil, fmt.Errorf("order workflow metrics: %w", err)
	}
	upload := func(ctx context.Context, name string, data []byte) (order.Blob, error) {
		if _, err := a.store.client.UploadBuffer(ctx, a.cfg.Container, name, data, nil); err != nil {
			return order.Blob{}, fmt.Errorf("upload receipt %s: %w", name, err)
		}
		sum := md5.Sum(data)
		return order.Blob{Name: name, Size: int64(len(data)), MD5: hex.EncodeToString(sum[:])}, nil
	}
	// Deleting a receipt that is not there succeeds: the compensation may
	// run for an upload that never stored anything.
	deleteReceipt := func(ctx context.Context, name string) error {
		_, err := a.store.client.DeleteBlob(ctx, a.cfg.Container, name, nil)
		if err != nil && !bloberror.HasCode(err, bloberror.BlobNotFound) {
			return fmt.Errorf("delete receipt %s: %w", name, err)
		}
		return nil
	}
	// A compensation that fails to delete its receipt hands it to orphans,
	// which retries it; the failure still reaches the run's error (and the
	// log). On Temporal, each failed attempt hands it over, once.
	orphans := newOrphans(deleteReceipt, a.log.With("component", "orders"), reg)
	del := func(ctx context.Context, name string) error {
		err := deleteReceipt(ctx, name)
		if err != nil {
			orphans.add(name)
		}
		return err
	}
	// The record is created only where none is (If-None-Match: *). Finding
	// one, the attempt reads it: the same bytes are this run's own, stored by
	// an attempt whose answer was lost (azcore retried it, or Temporal
	// did); other bytes are another run's.
	record := func(ctx context.Context, name string, data []byte) error {
		_, err := a.store.client.UploadBuffer(ctx, a.cfg.Container, name, data, &azblob.UploadBufferOptions{
			AccessConditions: &blob.AccessConditions{ModifiedAccessConditions: &blob.ModifiedAccessConditions{
				IfNoneMatch: to.Ptr(azcore.ETagAny),
			}},
		})
		if err == nil {
			return nil
		}
		if !bloberror.HasCode(err, bloberror.BlobAlreadyExists) {
			return fmt.Errorf("record order %s: %w", name, err)
		}
		got, err := a.readSmallBlob(ctx, name, maxRecordBytes)
		if err != nil {
			return fmt.Errorf("record order %s: %w", name, err)
		}
		if bytes.Equal(got, data) {
			return nil
		}
		return fmt.Errorf("record order %s: %w", name, order.ErrRecorded)
	}
	conv := func(p profile.Profile) order.Profile {
		return order.Profile{FirstName: p.FirstName, LastName: p.LastName}
	}
	svc := a.profiles
	async := order.New(order.ModeAsync, order.Services{
		Profile: func(ctx context.Context) (order.Profile, error) {
			p, err := svc.getAsync(ctx)
			return conv(p), err
		},
		Upload: upload,
		Delete: del,
		Record: record,
	}, activity.WithTracking(named{"order-async", m}, activity.ProfileHealth))
	// The sync workflow's activities are Code activities: each call runs on
	// the request's worker and keeps it, and the profile call is the blocking
	// one with no request context, as in GET /api/sync/profile.
	sync := order.New(order.ModeSync, order.Services{
		Profile: func(context.Context) (order.Profile, error) {
			p, err := svc.getBlocking()
			return conv(p), err
		},
		Upload: upload,
		Delete: del,
		Record: record,
	}, activity.WithTracking(named{"order-sync", m}, activity.ProfileHealth))
	reads := make(chan struct{}, maxOrderReads)
	full := prometheus.NewCounter(prometheus.CounterOpts{
		Name: "syncio_order_reads_rejected_total",
		Help: "Orders answered 503 queue_full because maxOrderReads order bodies were already arriving.",
	})
	if err := reg.Register(full); err != nil {
		return nil, fmt.Errorf("order metrics: %w", err)
	}
	if err := reg.Register(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "syncio_order_reads",
		Help: "Order bodies arriving right now, read before the request asks for a worker.",
	}, func() float64 { return float64(len(reads)) })); err != nil {
		return nil, fmt.Errorf("order metrics: %w", err)
	}
	return &orderWorkflows{sync: sync, async: async, reads: reads, readsFull: full, orphans: orphans}, nil
}

// stop ends the retries of receipts left by failed compensations, logging
// those still left. Call it once no order can run (after the HTTP server
// and the Temporal worker stopped) and before storage closes.
func (w *orderWorkflows) stop() { w.orphans.stop() }

// orderKey is where readOrder leaves the decoded order for the handler.
const orderKey = "syncio.order"

// readOrder reads, decodes and validates the posted order before the
// request asks for a worker: it runs ahead of admit. A client that sends
// its body slowly then holds its connection and at most maxOrderBytes, for
// at most the body deadline, and no worker: with the read behind admit, a
// hundred clients sending a byte a second held every worker and kept every
// /api route down. What the sync order route demonstrates is the blocking
// profile call on the worker, not a slow client, so both order routes read
// first. Past maxOrderReads bodies arriving at once, 503 queue_full at
// once, as a full admission queue answers.
func (a *app) readOrder(c *gin.Context) {
	select {
	case a.orders.reads <- struct{}{}:
	default:
		a.orders.readsFull.Inc()
		c.Header("Retry-After", "1")
		abortError(c, http.StatusServiceUnavailable, codeQueueFull, "server busy: too many order bodies arriving, retry later")
		return
	}
	o, ok := func() (order.Order, bool) {
		defer func() { <-a.orders.reads }() // given back even if decoding panics
		return a.decodeOrder(c)
	}()
	if !ok {
		return
	}
	c.Set(orderKey, o)
	c.Next()
}

// postedOrder is the order readOrder decoded.
func postedOrder(c *gin.Context) order.Order { return c.MustGet(orderKey).(order.Order) }

// syncOrder runs the order workflow holding the request's worker throughout,
// its record's read included.
func (a *app) syncOrder(c *gin.Context) { a.runOrder(c, a.orders.sync, onWorker) }

// asyncOrder runs the order workflow, whose I/O activities release the
// request's worker while they wait; with Temporal configured, the same
// workflow runs there instead (durableOrder).
func (a *app) asyncOrder(c *gin.Context) {
	if a.durable != nil {
		a.durableOrder(c)
		return
	}
	a.runOrder(c, a.orders.async, a.pool.Await)
}

// waitFunc runs io for a request that holds a worker: pool.Await gives the
// worker back while io waits, onWorker keeps it.
type waitFunc func(ctx context.Context, io func(context.Context) error) error

// onWorker runs io on the worker the request holds, as the sync route does
// all its I/O.
func onWorker(ctx context.Context, io func(context.Context) error) error { return io(ctx) }

// decodeOrder reads and validates the posted order, answering 413 or 400
// (and returning false) when it is too big or invalid.
func (a *app) decodeOrder(c *gin.Context) (order.Order, bool) {
	a.bodyDeadline(c)
	o, err := order.Decode(http.MaxBytesReader(c.Writer, c.Request.Body, maxOrderBytes))
	var maxErr *http.MaxBytesError
	switch {
	case errors.As(err, &maxErr):
		// As the upload routes answer an oversized body.
		abortError(c, http.StatusRequestEntityTooLarge, codeTooLarge,
			fmt.Sprintf("order body exceeds the limit of %d bytes", maxOrderBytes))
		return order.Order{}, false
	case errors.Is(err, os.ErrDeadlineExceeded):
		abortError(c, http.StatusRequestTimeout, codeBodyTimeout, "the order body did not arrive within the body deadline")
		return order.Order{}, false
	case err != nil:
		abortError(c, http.StatusBadRequest, codeInvalidOrder, err.Error())
		return order.Order{}, false
	}
	return o, true
}

// abortConflict answers a repeated order ID whose body differs from the
// first one's.
func abortConflict(c *gin.Context, id string) {
	abortError(c, http.StatusConflict, codeOrderConflict, fmt.Sprintf(
		"order id %q was already used with a different body: post a retry unchanged, or use a new id for a new order", id))
}

// runOrder runs an order readOrder accepted (a bad one was a 400 there and
// nothing ran). The first request with an order ID in this process finds
// its answer (answerOrder); a repeat of that ID with the same body
// meanwhile waits for that answer, with no worker held, and answers the
// same; with another body it is a 409.
func (a *app) runOrder(c *gin.Context, wf *activity.Workflow[order.Order, order.Confirmation], wait waitFunc) {
	o := postedOrder(c)
	digest := order.Digest(o)
	entry, owner, conflict := a.ledger.begin(o.ID, digest)
	if conflict {
		abortConflict(c, o.ID)
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), a.cfg.UpstreamTimeout)
	defer cancel()
	if !owner {
		err := a.pool.Await(ctx, func(ctx context.Context) error {
			select {
			case <-entry.done:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
		if err != nil {
			abortUpstream(c, err, codeUpstreamError, "waiting for the same order's first request")
			return
		}
		a.respondOrder(c, o.ID, entry.conf, entry.err)
		return
	}
	var (
		conf order.Confirmation
		err  = errors.New("order run panicked")
	)
	// Deferred, so a panicking run still releases the ID and its waiters.
	defer func() { a.ledger.finish(o.ID, entry, conf, err) }()
	conf, err = a.answerOrder(ctx, wf, o, digest, wait)
	a.respondOrder(c, o.ID, conf, err)
}

// answerOrder answers order o from its record when it has one, and
// otherwise runs wf on the worker the admission middleware holds, under a
// fresh run key (its own receipt). The record, read through wait, is what
// makes a repeat after a restart (or one the Temporal route took first) get
// the same answer and run nothing. A run that lost the record to another
// run of the ID (order.ErrRecorded: another process, or Temporal,
// confirmed it meanwhile) has deleted its receipt, and is answered from
// that run's record.
func (a *app) answerOrder(ctx context.Context, wf *activity.Workflow[order.Order, order.Confirmation], o order.Order, digest string, wait waitFunc) (order.Confirmation, error) {
	if conf, found, err := a.lookupRecord(ctx, o.ID, digest, wait); found || err != nil {
		return conf, err
	}
	o.Run = order.NewRun()
	conf, err := wf.RunHolding(ctx, a.pool, o)
	if errors.Is(err, order.ErrRecorded) {
		if rconf, found, rerr := a.lookupRecord(ctx, o.ID, digest, wait); found || rerr != nil {
			return rconf, rerr
		}
	}
	return conf, err
}

// lookupRecord is recordedAnswer through wait, for a request holding a
// worker. An error of wait itself (the worker did not come back before ctx
// ended) is returned as it is.
func (a *app) lookupRecord(ctx context.Context, id, digest string, wait waitFunc) (order.Confirmation, bool, error) {
	var (
		conf  order.Confirmation
		found bool
		rerr  error
	)
	if err := wait(ctx, func(ctx context.Context) error {
		conf, found, rerr = a.recordedAnswer(ctx, id, digest)
		return nil
	}); err != nil {
		return order.Confirmation{}, false, err
	}
	return conf, found, rerr
}

// errOrderConflict: the order ID's record is of another body (409).
var errOrderConflict = errors.New("order id recorded with another body")

// recordReadError is a failure to read an order's record: storage's, not a
// step's, so it is answered as storage's.
type recordReadError struct{ err error }

func (e *recordReadError) Error() string { return "reading the order's record: " + e.err.Error() }
func (e *recordReadError) Unwrap() error { return e.err }

// maxRecordBytes bounds what is read of a record: one confirmation's JSON.
const maxRecordBytes = 16 << 10

// recordedAnswer reads order id's record. found reports that there is one;
// its answer is then its confirmation, or errOrderConflict when it was
// recorded for another digest. Otherwise err is nil, or a *recordReadError.
func (a *app) recordedAnswer(ctx context.Context, id, digest string) (order.Confirmation, bool, error) {
	data, err := a.readSmallBlob(ctx, order.RecordName(id), maxRecordBytes)
	if bloberror.HasCode(err, bloberror.BlobNotFound) {
		return order.Confirmation{}, false, nil
	}
	var rec order.Record
	if err == nil {
		err = json.Unmarshal(data, &rec)
	}
	switch {
	case err != nil:
		return order.Confirmation{}, false, &recordReadError{err}
	case rec.Digest != digest:
		return order.Confirmation{}, true, errOrderConflict
	default:
		return rec.Confirmation, true, nil
	}
}

// readSmallBlob reads blob name whole, up to limit bytes.
func (a *app) readSmallBlob(ctx context.Context, name string, limit int64) ([]byte, error) {
	resp, err := a.store.client.DownloadStream(ctx, a.cfg.Container, name, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("blob %s is over %d bytes", name, limit)
	}
	return data, nil
}

// orderStep names where a failed order failed, for the client: the
// activity's path ("order workflow step Order/Parallel/UploadReceipt"),
// never the error's text, which may carry storage URLs.
func orderStep(err error) string {
	var ae *activity.Error
	if errors.As(err, &ae) {
		return "order workflow step " + ae.Path
	}
	return "order workflow"
}

// respondOrder answers order id with its result: a run's, or its record's.
// A failed run is answered by the step that failed (activity.Fault): the
// errors of the compensations that ran after it are about undoing, and go
// to the log only. Mapped together, a failed profile step whose receipt's
// delete storage then refused was answered "Order/Parallel/GetUserProfile
// failed: storage answered 503 ServerBusy", the delete's answer under the
// profile step's name (and a delete that timed out made a failed step a 504
// "timed out").
func (a *app) respondOrder(c *gin.Context, id string, conf order.Confirmation, err error) {
	var (
		verr *order.ValidationError
		rerr *recordReadError
	)
	fault := activity.Fault(err)
	switch {
	case err == nil:
		c.JSON(http.StatusCreated, conf)
	case errors.Is(err, errOrderConflict):
		abortConflict(c, id)
	case errors.As(err, &rerr):
		abortUpstream(c, err, codeStorageError, "reading the order's record")
	case errors.As(fault, &verr):
		abortError(c, http.StatusBadRequest, codeInvalidOrder, verr.Error())
	default:
		_ = c.Error(err) // the fault and what its compensations did, for the log
		answerUpstream(c, fault, codeUpstreamError, orderStep(fault))
	}
}
