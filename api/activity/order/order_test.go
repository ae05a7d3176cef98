package order_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/syncio/syncio/api/activity"
	"github.com/syncio/syncio/api/activity/order"
	"github.com/syncio/syncio/api/pool"
	"github.com/syncio/syncio/fakes/profile"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// validOrder is an order as the server runs it: the client's fields and a
// fresh run key.
func validOrder(id string) order.Order {
	return order.Order{ID: id, Run: order.NewRun(), Items: []order.Item{{SKU: "pen", Quantity: 3, PriceCents: 150}, {SKU: "ink", Quantity: 1, PriceCents: 999}}}
}

// recorder is an in-memory stand-in for the two services.
type recorder struct {
	mu       sync.Mutex
	profiles int
	uploads  map[string][]byte
	deletes  []string
}

func (r *recorder) services() order.Services {
	return order.Services{
		Profile: func(context.Context) (order.Profile, error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.profiles++
			return order.Profile{FirstName: "Ada", LastName: "Lovelace"}, nil
		},
		Upload: func(_ context.Context, name string, data []byte) (order.Blob, error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.uploads == nil {
				r.uploads = map[string][]byte{}
			}
			r.uploads[name] = data
			sum := md5.Sum(data)
			return order.Blob{Name: name, Size: int64(len(data)), MD5: hex.EncodeToString(sum[:])}, nil
		},
		Delete: r.delete,
	}
}

func (r *recorder) delete(_ context.Context, name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.deletes = append(r.deletes, name)
	delete(r.uploads, name)
	return nil
}

func TestOrderBothModes(t *testing.T) {
	for _, mode := range []order.Mode{order.ModeAsync, order.ModeSync} {
		t.Run(mode.String(), func(t *testing.T) {
			rec := &recorder{}
			wf := order.New(mode, rec.services())
			o := validOrder("A-1")
			got, err := wf.Run(context.Background(), activity.Unlimited{}, o)
			if err != nil {
				t.Fatal(err)
			}
			if got.OrderID != "A-1" || got.Customer != "Ada Lovelace" || got.TotalCents != 1449 || got.Status != "confirmed" {
				t.Errorf("confirmation = %+v", got)
			}
			data := rec.uploads[order.ReceiptName(o)]
			if got.Receipt.Name != "receipts/A-1/"+o.Run+".json" || got.Receipt.Size != int64(len(data)) {
				t.Errorf("receipt = %+v, uploaded %d bytes", got.Receipt, len(data))
			}
			if len(rec.deletes) != 0 {
				t.Errorf("a confirmed order ran its compensation: %q", rec.deletes)
			}
			var back struct {
				order.Order
				TotalCents int64 `json:"totalCents"`
			}
			if err := json.Unmarshal(data, &back); err != nil || back.ID != "A-1" || back.TotalCents != 1449 || len(back.Items) != 2 {
				t.Errorf("receipt body %s: %v", data, err)
			}
		})
	}
}

func TestInvalidOrderUploadsNothing(t *testing.T) {
	bad := []struct {
		o     order.Order
		field string
	}{
		{order.Order{ID: "", Items: validOrder("x").Items}, "id"},
		{order.Order{ID: "../etc", Items: validOrder("x").Items}, "id"},
		{order.Order{ID: "x"}, "items"},
		{order.Order{ID: "x", Items: []order.Item{{SKU: "", Quantity: 1}}}, "items[0].sku"},
		{order.Order{ID: "x", Items: []order.Item{{SKU: "a", Quantity: 1}, {SKU: "b", Quantity: 0}}}, "items[1].quantity"},
		{order.Order{ID: "x", Items: []order.Item{{SKU: "a", Quantity: 1, PriceCents: -1}}}, "items[0].priceCents"},
		// The probe: 1000 × MaxInt64 wrapped to a total of -1000.
		{order.Order{ID: "x", Run: order.NewRun(), Items: []order.Item{{SKU: "a", Quantity: 1000, PriceCents: 9223372036854775807}}}, "items[0].priceCents"},
		// Each line within its bounds, the sum past MaxTotalCents.
		{order.Order{ID: "x", Run: order.NewRun(), Items: []order.Item{{SKU: "a", Quantity: 1000, PriceCents: order.MaxPriceCents / 1000}, {SKU: "b", Quantity: 1, PriceCents: 1}}}, "totalCents"},
		// Validate alone passes it; the workflow needs the server's run key.
		{order.Order{ID: "x", Items: validOrder("x").Items}, "run"},
		{order.Order{ID: "x", Run: "../../etc", Items: validOrder("x").Items}, "run"},
	}
	for _, mode := range []order.Mode{order.ModeAsync, order.ModeSync} {
		rec := &recorder{}
		wf := order.New(mode, rec.services())
		for _, c := range bad {
			_, err := wf.Run(context.Background(), activity.Unlimited{}, c.o)
			var ve *order.ValidationError
			if !errors.As(err, &ve) || ve.Field != c.field {
				t.Errorf("%v %+v: err = %v, want a ValidationError on %s", mode, c.o, err, c.field)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "Order/Validate: invalid order: ") {
				t.Errorf("error lacks path: %v", err)
			}
		}
		if rec.profiles != 0 || len(rec.uploads) != 0 || len(rec.deletes) != 0 {
			t.Errorf("%v: invalid orders called services: %d profiles, %d uploads", mode, rec.profiles, len(rec.uploads))
		}
	}
}

func TestDecode(t *testing.T) {
	if o, err := order.Decode(strings.NewReader(`{"id":"B2","items":[{"sku":"a","quantity":2,"priceCents":5}]}`)); err != nil || order.Total(o) != 10 {
		t.Errorf("good order: %+v, %v", o, err)
	}
	for _, body := range []string{`{"id":"B2","run":"0123456789abcdef","items":[{"sku":"a","quantity":1}]}`,
		`{"id":"B2","items":[{"sku":"a","quantity":1000,"priceCents":9223372036854775807}]}`, `{`, `{"id":"B2","items":[{"sku":"a","quantity":1}],"extra":1}`, `{"id":"B2","items":[{"sku":"a","quantity":1}]} {}`, `{"id":"B2"}`,
		// Trailing closers: json.Decoder.More answers false before them.
		`{"id":"B2","items":[{"sku":"a","quantity":1,"priceCents":5}]}]`,
		`{"id":"B2","items":[{"sku":"a","quantity":1,"priceCents":5}]}}`,
		`{"id":"B2","items":[{"sku":"a","quantity":1,"priceCents":5}]} ] `,
		`{"id":"B2","items":[{"sku":"a","quantity":1,"priceCents":5}]}1`} {
		var ve *order.ValidationError
		if _, err := order.Decode(strings.NewReader(body)); !errors.As(err, &ve) {
			t.Errorf("Decode(%s) = %v, want a ValidationError", body, err)
		}
	}
	// White space after the order is not trailing data.
	if _, err := order.Decode(strings.NewReader(`{"id":"B2","items":[{"sku":"a","quantity":1,"priceCents":5}]}` + " \r\n\t")); err != nil {
		t.Errorf("order followed by white space: %v", err)
	}
}

func TestProfileFailureCancelsUpload(t *testing.T) {
	errDown := errors.New("profile service down")
	var uploadErr error
	rec := &recorder{}
	uploadStarted := make(chan struct{})
	wf := order.New(order.ModeAsync, order.Services{
		Profile: func(ctx context.Context) (order.Profile, error) {
			<-uploadStarted
			return order.Profile{}, errDown
		},
		Upload: func(ctx context.Context, _ string, _ []byte) (order.Blob, error) {
			close(uploadStarted)
			<-ctx.Done()
			uploadErr = ctx.Err()
			return order.Blob{}, uploadErr
		},
		Delete: rec.delete,
	})
	_, err := wf.Run(context.Background(), activity.Unlimited{}, validOrder("C3"))
	if !errors.Is(err, errDown) || !strings.HasPrefix(err.Error(), "Order/Parallel/GetUserProfile: ") {
		t.Errorf("err = %v", err)
	}
	if !errors.Is(uploadErr, context.Canceled) {
		t.Errorf("upload ended with %v, want context.Canceled", uploadErr)
	}
	if len(rec.deletes) != 1 || !strings.HasPrefix(rec.deletes[0], "receipts/C3/") {
		t.Errorf("compensation deleted %q, want the receipt once", rec.deletes)
	}
}

// TestUploadFailureRunsCompensation: an upload that fails for good may
// still have stored the blob, so the failed order deletes its receipt.
func TestUploadFailureRunsCompensation(t *testing.T) {
	for _, mode := range []order.Mode{order.ModeAsync, order.ModeSync} {
		rec := &recorder{}
		svc := rec.services()
		errStore := errors.New("storage down")
		svc.Upload = func(context.Context, string, []byte) (order.Blob, error) { return order.Blob{}, errStore }
		_, err := order.New(mode, svc).Run(context.Background(), activity.Unlimited{}, validOrder("D4"))
		if !errors.Is(err, errStore) || !strings.HasPrefix(err.Error(), "Order/Parallel/UploadReceipt: ") {
			t.Errorf("%v: err = %v", mode, err)
		}
		if len(rec.deletes) != 1 || !strings.HasPrefix(rec.deletes[0], "receipts/D4/") {
			t.Errorf("%v: compensation deleted %q, want the receipt once", mode, rec.deletes)
		}
	}
}

// TestAsyncOrdersShareOneWorker runs against the real api/pool with ONE
// worker: four async orders must all have both calls in flight at once,
// which is only possible if each run gives the worker back during its I/O.
func TestAsyncOrdersShareOneWorker(t *testing.T) {
	const orders = 4
	p := pool.New(1, orders)
	var inFlight atomic.Int32
	allIn := make(chan struct{})
	var once sync.Once
	barrier := func(ctx context.Context) error {
		if inFlight.Add(1) == 2*orders {
			once.Do(func() { close(allIn) })
		}
		select {
		case <-allIn:
			return nil
		case <-time.After(10 * time.Second): // hang guard only
			return errors.New("calls never overlapped: the worker was not released")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	wf := order.New(order.ModeAsync, order.Services{
		Profile: func(ctx context.Context) (order.Profile, error) {
			return order.Profile{FirstName: "A", LastName: "B"}, barrier(ctx)
		},
		Upload: func(ctx context.Context, name string, data []byte) (order.Blob, error) {
			return order.Blob{Name: name, Size: int64(len(data))}, barrier(ctx)
		},
		Delete: func(context.Context, string) error { return errors.New("no compensation expected") },
	})
	var wg sync.WaitGroup
	errs := make([]error, orders)
	for i := range orders {
		wg.Go(func() {
			_, errs[i] = wf.Run(context.Background(), p, validOrder("O"+string(rune('a'+i))))
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if st := p.Stats(); st.Busy != 0 || st.Continuations != 0 || st.Queued != 0 {
		t.Errorf("pool after runs: %+v", st)
	}
}

// TestSyncOrdersHoldTheWorker is the contrast: with blocking activities a
// run keeps its worker during I/O, so on a one-worker pool no two calls ever
// overlap, not even the two branches of one order's Parallel.
func TestSyncOrdersHoldTheWorker(t *testing.T) {
	p := pool.New(1, 8)
	var inFlight, maxInFlight atomic.Int32
	call := func() {
		n := inFlight.Add(1)
		for {
			m := maxInFlight.Load()
			if n <= m || maxInFlight.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(2 * time.Millisecond) // a blocking call, giving others a chance to overlap if they could
		inFlight.Add(-1)
	}
	wf := order.New(order.ModeSync, order.Services{
		Profile: func(context.Context) (order.Profile, error) { call(); return order.Profile{}, nil },
		Upload:  func(context.Context, string, []byte) (order.Blob, error) { call(); return order.Blob{}, nil },
		Delete:  func(context.Context, string) error { return errors.New("no compensation expected") },
	})
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			if _, err := wf.Run(context.Background(), p, validOrder("S"+string(rune('a'+i)))); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := maxInFlight.Load(); got != 1 {
		t.Errorf("max concurrent calls = %d, want 1", got)
	}
}

// TestWiringWithFakeProfile shows the closures the API passes: the async
// mode waits on the fake's timer-driven Future, the sync mode calls the
// blocking method.
func TestWiringWithFakeProfile(t *testing.T) {
	svc := profile.New(profile.WithLatency(5 * time.Millisecond))
	conv := func(p profile.Profile, err error) (order.Profile, error) {
		return order.Profile{FirstName: p.FirstName, LastName: p.LastName}, err
	}
	rec := &recorder{}
	upload := rec.services().Upload
	p := pool.New(2, 4)
	async := order.New(order.ModeAsync, order.Services{
		Profile: func(ctx context.Context) (order.Profile, error) { return conv(svc.GetUserProfileAsync(ctx).Wait(ctx)) },
		Upload:  upload,
		Delete:  rec.delete,
	})
	sync := order.New(order.ModeSync, order.Services{
		Profile: func(context.Context) (order.Profile, error) { return conv(svc.GetUserProfile()) },
		Upload:  upload,
		Delete:  rec.delete,
	})
	for _, wf := range []*activity.Workflow[order.Order, order.Confirmation]{async, sync} {
		got, err := wf.Run(context.Background(), p, validOrder("W1"))
		if err != nil || got.Customer != "Alton Hudgens" {
			t.Errorf("got %+v, %v", got, err)
		}
	}
}

// TestSameIDRunsWriteTheirOwnReceipts: two runs of one client ID, one of
// which fails, must not share a receipt; the failed run's compensation
// deletes only its own. Named from the ID alone, the failure deleted the
// confirmed run's receipt.
func TestSameIDRunsWriteTheirOwnReceipts(t *testing.T) {
	rec := &recorder{}
	ok := order.New(order.ModeAsync, rec.services())
	failing := rec.services()
	failing.Profile = func(context.Context) (order.Profile, error) { return order.Profile{}, errors.New("profile down") }
	bad := order.New(order.ModeAsync, failing)

	conf, err := ok.Run(context.Background(), activity.Unlimited{}, validOrder("SAME"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bad.Run(context.Background(), activity.Unlimited{}, validOrder("SAME")); err == nil {
		t.Fatal("the failing run succeeded")
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if _, kept := rec.uploads[conf.Receipt.Name]; !kept {
		t.Errorf("confirmed receipt %s was deleted by the other run's compensation (deletes %q)", conf.Receipt.Name, rec.deletes)
	}
	if len(rec.deletes) != 1 || rec.deletes[0] == conf.Receipt.Name {
		t.Errorf("deletes = %q, want only the failed run's own receipt", rec.deletes)
	}
}

// record is RecordFunc's contract over the recorder's blobs: create once,
// the same bytes again are fine, other bytes are ErrRecorded.
func (r *recorder) record(_ context.Context, name string, data []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.uploads == nil {
		r.uploads = map[string][]byte{}
	}
	if got, ok := r.uploads[name]; ok {
		if string(got) == string(data) {
			return nil
		}
		return fmt.Errorf("record %s: %w", name, order.ErrRecorded)
	}
	r.uploads[name] = data
	return nil
}

// TestRecordIsTheCommitPoint: with Services.Record, a confirmed run stores
// the order's record (its digest, run and confirmation) under RecordName; a
// second run of the same ID (another run key) finds it, fails with
// ErrRecorded and deletes its own receipt, and the first run's receipt and
// record stand.
func TestRecordIsTheCommitPoint(t *testing.T) {
	for _, mode := range []order.Mode{order.ModeAsync, order.ModeSync} {
		t.Run(mode.String(), func(t *testing.T) {
			rec := &recorder{}
			svc := rec.services()
			svc.Record = rec.record
			wf := order.New(mode, svc)
			first := validOrder("R1")
			conf, err := wf.Run(context.Background(), activity.Unlimited{}, first)
			if err != nil {
				t.Fatal(err)
			}
			var got order.Record
			if err := json.Unmarshal(rec.uploads[order.RecordName("R1")], &got); err != nil {
				t.Fatalf("record %s: %v", order.RecordName("R1"), err)
			}
			if got.Digest != order.Digest(first) || got.Run != first.Run || got.Confirmation != conf {
				t.Errorf("record %+v, want digest %s, run %s, confirmation %+v", got, order.Digest(first), first.Run, conf)
			}

			second := validOrder("R1")
			_, err = wf.Run(context.Background(), activity.Unlimited{}, second)
			if !errors.Is(err, order.ErrRecorded) || !strings.HasPrefix(err.Error(), "Order/Record: ") {
				t.Fatalf("second run of R1: %v, want Order/Record: … ErrRecorded", err)
			}
			if _, ok := rec.uploads[order.ReceiptName(second)]; ok || !slices.Contains(rec.deletes, order.ReceiptName(second)) {
				t.Errorf("the second run's receipt %s was not deleted (deletes %v)", order.ReceiptName(second), rec.deletes)
			}
			if _, ok := rec.uploads[conf.Receipt.Name]; !ok {
				t.Errorf("the first run's receipt %s is gone", conf.Receipt.Name)
			}
		})
	}
}

// TestDigestIgnoresRun: the digest is the client's: the run key, which the
// server sets per run, does not change it; any field the client sets does.
func TestDigestIgnoresRun(t *testing.T) {
	a, b := validOrder("D1"), validOrder("D1")
	if order.Digest(a) != order.Digest(b) {
		t.Error("two runs of one order digest differently")
	}
	b.Items[0].Quantity++
	if order.Digest(a) == order.Digest(b) {
		t.Error("orders with different quantities digest equal")
	}
}
