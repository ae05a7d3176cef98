package order

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"time"

	"github.com/syncio/syncio/api/activity"
)

// Limits on an order, enforced by Validate. MaxPriceCents and
// MaxTotalCents (10^13 cents, a hundred billion in currency units) keep
// every total exact in an int64 with room to spare: Total cannot overflow
// for any order that Validate accepts.
const (
	MaxItems      = 100
	MaxQuantity   = 1000
	MaxPriceCents = int64(1e13)
	MaxTotalCents = int64(1e13)
)

// Item is one order line. Prices are in cents to keep totals exact.
type Item struct {
	SKU        string `json:"sku"`
	Quantity   int    `json:"quantity"`
	PriceCents int64  `json:"priceCents"`
}

// Order is the workflow's input, as posted by the client, plus the run key
// the server gives each run.
type Order struct {
	ID    string `json:"id"`
	Items []Item `json:"items"`
	// Run names this run of the order (NewRun), and with it the receipt.
	// The server sets it, never the client: two runs with the same client
	// ID (a retry, or a concurrent duplicate) then write different receipts,
	// and one run's compensation cannot delete what another run confirmed.
	// It travels with the input so a durable host replays it unchanged.
	Run string `json:"run,omitempty"`
}

// Profile is the customer profile the workflow fetches.
type Profile struct {
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
}

// Blob describes the uploaded receipt.
type Blob struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	MD5  string `json:"md5"`
}

// Confirmation is the workflow's output.
type Confirmation struct {
	OrderID    string `json:"orderId"`
	Customer   string `json:"customer"`
	TotalCents int64  `json:"totalCents"`
	Receipt    Blob   `json:"receipt"`
	Status     string `json:"status"`
}

// ProfileFunc fetches the customer's profile. In ModeAsync it runs with no
// worker held and must honour ctx; in ModeSync it runs on the worker.
type ProfileFunc func(ctx context.Context) (Profile, error)

// UploadFunc stores data as a blob called name.
type UploadFunc func(ctx context.Context, name string, data []byte) (Blob, error)

// DeleteFunc removes the blob called name. Deleting a blob that does not
// exist must succeed: it is a compensation, and may run for an upload that
// never happened or run twice.
type DeleteFunc func(ctx context.Context, name string) error

// RecordFunc stores data as the blob called name only if no blob has that
// name yet (a conditional create, If-None-Match: *). If one has, it returns
// nil when that blob holds exactly data (an earlier attempt of the same run
// stored it and its answer was lost), and otherwise an error wrapping
// ErrRecorded.
type RecordFunc func(ctx context.Context, name string, data []byte) error

// ErrRecorded: another run recorded the order ID first (RecordFunc).
var ErrRecorded = errors.New("the order id is already recorded by another run")

// Services are the backend calls the workflow makes: the profile lookup and
// the receipt upload, the receipt's deletion when an order fails, and the
// order's record. Record may be nil: then the workflow ends at Confirm and
// keeps no record.
type Services struct {
	Profile ProfileFunc
	Upload  UploadFunc
	Delete  DeleteFunc
	Record  RecordFunc
}

// deleteTimeout bounds the compensation's delete: compensations run after
// the run's context has ended, so they bound their own waiting.
const deleteTimeout = 10 * time.Second

// Mode selects how the service calls run.
type Mode int

const (
	// ModeAsync runs the calls as Async activities that free the worker.
	ModeAsync Mode = iota
	// ModeSync runs them as blocking Code activities that hold the worker.
	ModeSync
)

func (m Mode) String() string {
	if m == ModeSync {
		return "sync"
	}
	return "async"
}

// ValidationError says what is wrong with an order. A handler should answer
// 400 with it; the workflow fails with it before any service is called.
type ValidationError struct {
	Field  string
	Reason string
	// Err is the read or decode error behind a "body" problem, or nil. It is
	// kept so callers can tell a body over their size limit from bad JSON.
	Err error
}

func (e *ValidationError) Error() string { return "invalid order: " + e.Field + ": " + e.Reason }

// Unwrap returns Err.
func (e *ValidationError) Unwrap() error { return e.Err }

var (
	idPattern  = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	runPattern = regexp.MustCompile(`^[0-9a-f]{16,64}$`)
)

// NewRun returns a fresh run key for Order.Run: 128 random bits in hex.
func NewRun() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// Validate checks what the client posted and returns a *ValidationError
// for the first problem. The ID must be safe to use in a blob name, hence
// the strict pattern. Run is not the client's: a non-empty Run is an error
// here, and the workflow checks the server-set one (ValidateRun).
func Validate(o Order) error {
	if o.Run != "" {
		return &ValidationError{Field: "run", Reason: "is set by the server, not the client"}
	}
	return validateLines(o)
}

// ValidateRun checks a server-built order: the client's fields, and a run
// key from NewRun.
func ValidateRun(o Order) error {
	if err := validateLines(o); err != nil {
		return err
	}
	if !runPattern.MatchString(o.Run) {
		return &ValidationError{Field: "run", Reason: "must be a run key from order.NewRun (set by the server)"}
	}
	return nil
}

func validateLines(o Order) error {
	if !idPattern.MatchString(o.ID) {
		return &ValidationError{Field: "id", Reason: "must be 1-64 letters, digits, '-' or '_'"}
	}
	if len(o.Items) == 0 || len(o.Items) > MaxItems {
		return &ValidationError{Field: "items", Reason: fmt.Sprintf("must have 1-%d items", MaxItems)}
	}
	for i, it := range o.Items {
		field := fmt.Sprintf("items[%d]", i)
		switch {
		case it.SKU == "":
			return &ValidationError{Field: field + ".sku", Reason: "is required"}
		case it.Quantity < 1 || it.Quantity > MaxQuantity:
			return &ValidationError{Field: field + ".quantity", Reason: fmt.Sprintf("must be 1-%d", MaxQuantity)}
		case it.PriceCents < 0 || it.PriceCents > MaxPriceCents:
			return &ValidationError{Field: field + ".priceCents", Reason: fmt.Sprintf("must be 0-%d", MaxPriceCents)}
		}
	}
	if _, ok := checkedTotal(o); !ok {
		return &ValidationError{Field: "totalCents", Reason: fmt.Sprintf("the order total must not exceed %d cents", MaxTotalCents)}
	}
	return nil
}

// checkedTotal sums the lines, stopping as soon as the total passes
// MaxTotalCents. With Validate's per-line bounds (quantity ≤ 1000, price ≤
// 10^13) a line is at most 10^16 and a partial sum stays below 2·10^16, far
// inside int64, so neither the product nor the sum can wrap.
func checkedTotal(o Order) (int64, bool) {
	var t int64
	for _, it := range o.Items {
		if it.Quantity < 0 || it.Quantity > MaxQuantity || it.PriceCents < 0 || it.PriceCents > MaxPriceCents {
			return 0, false
		}
		t += int64(it.Quantity) * it.PriceCents
		if t > MaxTotalCents {
			return 0, false
		}
	}
	return t, true
}

// Total returns the order total in cents, for an order Validate accepted;
// for any other it returns -1 rather than a wrapped sum.
func Total(o Order) int64 {
	t, ok := checkedTotal(o)
	if !ok {
		return -1
	}
	return t
}

// Decode reads one JSON order from r, rejecting unknown fields and trailing
// data, and validates it. Every failure is a *ValidationError.
func Decode(r io.Reader) (Order, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var o Order
	if err := dec.Decode(&o); err != nil {
		return Order{}, &ValidationError{Field: "body", Reason: err.Error(), Err: err}
	}
	// Only white space may follow the order. dec.More is no test of that: it
	// asks whether an array or object has another element, and so answers
	// false before a ']' or '}', which let `{...}]` through. Token reads
	// what follows: io.EOF when nothing does, a *json.SyntaxError or a
	// token when something does, and any other error when reading the body
	// failed (its size limit or deadline), which is kept in Err as for the
	// order itself.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var syn *json.SyntaxError
		if err != nil && !errors.As(err, &syn) {
			return Order{}, &ValidationError{Field: "body", Reason: err.Error(), Err: err}
		}
		return Order{}, &ValidationError{Field: "body", Reason: "trailing data after the order"}
	}
	return o, Validate(o)
}

// ReceiptName is the blob name of o's receipt: the client's ID and the
// run's key, so each run writes, and its compensation deletes, only its own
// receipt. (Named from the ID alone, a failed duplicate's compensation once
// deleted the receipt of the run that had been confirmed.) A durable host
// replays the same Run, so its retried activities overwrite their own
// receipt instead of adding another.
func ReceiptName(o Order) string { return "receipts/" + o.ID + "/" + o.Run + ".json" }

// RecordName is the blob name of order id's record: one per ID, whatever
// the run, so a run can find it before it starts.
func RecordName(id string) string { return "orders/" + id + ".json" }

// Record is an order's record: the answer its ID was given, stored once per
// ID (RecordName) by the run that confirmed it, which names the receipt that
// stands. It outlives the process that ran the order, and whatever ran it
// (in-process or a durable host): a repeat of the ID is answered from it,
// with the same confirmation if its Digest matches and as a conflict if not.
type Record struct {
	Digest       string       `json:"digest"`
	Run          string       `json:"run"`
	Confirmation Confirmation `json:"confirmation"`
}

// Digest identifies what the client posted: the SHA-256, in hex, of the
// order's JSON without its run key. json.Marshal of a struct is
// deterministic, so equal orders digest equal however their JSON was
// spaced. A repeated ID with the same digest is a retry; with another, a
// conflict.
func Digest(o Order) string {
	o.Run = ""
	b, _ := json.Marshal(o) // an Order always marshals
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

type receipt struct {
	Order
	TotalCents int64 `json:"totalCents"`
}

// Upload is a receipt ready to store. Its fields are exported because a
// durable host (api/activity/temporal) serializes an activity's input.
type Upload struct {
	Name string `json:"name"`
	Data []byte `json:"data"`
}

// New builds the order workflow. Build it once and Run it per request.
func New(mode Mode, svc Services, opts ...activity.Option) *activity.Workflow[Order, Confirmation] {
	if svc.Profile == nil || svc.Upload == nil || svc.Delete == nil {
		panic(errors.New("order: Services needs Profile, Upload and Delete"))
	}
	return activity.New("Order", func(s *activity.Scope, in activity.Var[Order], out activity.Var[Confirmation]) activity.Activity {
		total := activity.Declare[int64](s, "total")
		profile := activity.Declare[Profile](s, "profile")
		blob := activity.Declare[Blob](s, "receipt")
		prepared := activity.Declare[Upload](s, "upload")

		validate := activity.Code("Validate", in, total, func(_ context.Context, o Order) (int64, error) {
			if err := ValidateRun(o); err != nil {
				return 0, err
			}
			return Total(o), nil
		})
		// The receipt is marshalled on the worker (CPU work, deterministic);
		// only the upload itself is I/O.
		prepare := activity.Code("PrepareReceipt", in, prepared, func(_ context.Context, o Order) (Upload, error) {
			data, err := json.Marshal(receipt{Order: o, TotalCents: Total(o)})
			return Upload{Name: ReceiptName(o), Data: data}, err
		})
		profileIO := func(ctx context.Context, _ struct{}) (Profile, error) { return svc.Profile(ctx) }
		uploadIO := func(ctx context.Context, u Upload) (Blob, error) { return svc.Upload(ctx, u.Name, u.Data) }
		deleteIO := func(ctx context.Context, name string) (struct{}, error) {
			ctx, cancel := context.WithTimeout(ctx, deleteTimeout)
			defer cancel()
			return struct{}{}, svc.Delete(ctx, name)
		}
		receiptName := activity.Expr[string](func(e *activity.Env) string { return prepared.Get(e).Name })
		var getProfile, uploadReceipt, deleteReceipt activity.Activity
		if mode == ModeSync {
			getProfile = activity.Code("GetUserProfile", nil, profile, profileIO)
			uploadReceipt = activity.Code("UploadReceipt", prepared, blob, uploadIO)
			deleteReceipt = activity.Code("DeleteReceipt", receiptName, nil, deleteIO)
		} else {
			getProfile = activity.AsyncIO("GetUserProfile", nil, profile, profileIO)
			uploadReceipt = activity.AsyncIO("UploadReceipt", prepared, blob, uploadIO)
			deleteReceipt = activity.AsyncIO("DeleteReceipt", receiptName, nil, deleteIO)
		}
		confirm := activity.Code("Confirm", activity.Expr[Confirmation](func(e *activity.Env) Confirmation {
			p := profile.Get(e)
			return Confirmation{
				OrderID:    in.Get(e).ID,
				Customer:   p.FirstName + " " + p.LastName,
				TotalCents: total.Get(e),
				Receipt:    blob.Get(e),
				Status:     "confirmed",
			}
		}), out, func(_ context.Context, c Confirmation) (Confirmation, error) { return c, nil })

		steps := []activity.Activity{
			validate,
			// The compensation is registered before the upload starts, not
			// after it succeeds: an upload that failed for good may still
			// have stored the blob (an attempt whose answer was lost), and a
			// failed order must leave no receipt behind.
			activity.Compensable("Receipt", prepare, deleteReceipt),
			activity.Parallel("Parallel", getProfile, uploadReceipt),
			confirm,
		}
		if svc.Record != nil {
			// The record is the order's commit point: written once per ID,
			// after the confirmation and inside the receipt's compensation,
			// so a run that cannot record (storage failing, or another run
			// of the ID recorded first: ErrRecorded) fails and deletes its
			// own receipt, and exactly one receipt per ID stands. The
			// record's bytes are built in workflow code, deterministically.
			record := activity.Expr[Upload](func(e *activity.Env) Upload {
				o := in.Get(e)
				data, _ := json.Marshal(Record{Digest: Digest(o), Run: o.Run, Confirmation: out.Get(e)}) // always marshals
				return Upload{Name: RecordName(o.ID), Data: data}
			})
			recordIO := func(ctx context.Context, u Upload) (struct{}, error) {
				return struct{}{}, svc.Record(ctx, u.Name, u.Data)
			}
			if mode == ModeSync {
				steps = append(steps, activity.Code("Record", record, nil, recordIO))
			} else {
				steps = append(steps, activity.AsyncIO("Record", record, nil, recordIO))
			}
		}
		return activity.Sequence("Order", steps...)
	}, opts...)
}
