package order_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	"github.com/syncio/syncio/api/activity/order"
)

// FuzzDecode: any body either fails with a *ValidationError or is one JSON
// value (nothing after it but white space) that decodes to an order that
// Validate accepts, with no client-set run key and a total
// that is the exact (big-integer) sum of its lines, within 0..MaxTotalCents:
// no input can make the total wrap. The seeds run in every go test.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"id":"A1","items":[{"sku":"pen","quantity":1,"priceCents":150}]}`,
		`{"id":"A1","items":[{"sku":"pen","quantity":1000,"priceCents":9223372036854775807}]}`,
		`{"id":"A1","items":[{"sku":"pen","quantity":1000,"priceCents":10000000000},{"sku":"b","quantity":1000,"priceCents":10000000000}]}`,
		`{"id":"A1","items":[{"sku":"pen","quantity":-1,"priceCents":-9223372036854775808}]}`,
		`{"id":"A1","run":"0123456789abcdef","items":[{"sku":"pen","quantity":1,"priceCents":1}]}`,
		`{"id":"../x","items":[]}`, `{`, `null`, `[]`, `{"id":"A1","items":[{"sku":"p","quantity":1e3,"priceCents":1}]}`,
		`{"id":"A1","items":[{"sku":"pen","quantity":1,"priceCents":150}]}]`,
		`{"id":"A1","items":[{"sku":"pen","quantity":1,"priceCents":150}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		o, err := order.Decode(bytes.NewReader(body))
		if err != nil {
			var ve *order.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Decode error %T %v, want *ValidationError", err, err)
			}
			return
		}
		// An accepted body is one JSON value and nothing else.
		if !json.Valid(body) {
			t.Fatalf("Decode accepted %q, which is not one JSON value", body)
		}
		if verr := order.Validate(o); verr != nil || o.Run != "" {
			t.Fatalf("decoded order %+v: Validate %v, run %q", o, verr, o.Run)
		}
		exact := new(big.Int)
		for _, it := range o.Items {
			exact.Add(exact, new(big.Int).Mul(big.NewInt(int64(it.Quantity)), big.NewInt(it.PriceCents)))
		}
		total := order.Total(o)
		if !exact.IsInt64() || exact.Int64() != total || total < 0 || total > order.MaxTotalCents {
			t.Fatalf("Total = %d, exact sum %s, want equal and within 0..%d", total, exact, order.MaxTotalCents)
		}
	})
}
