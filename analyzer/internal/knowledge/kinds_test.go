package knowledge

import (
	"strings"
	"testing"
)

// TestKindsTable: the embedded table parses, and every row of the SIO001
// table has a kind, so a finding's operations from the table are ordered
// by what they wait on, never left unclassified.
func TestKindsTable(t *testing.T) {
	if _, err := ParseKinds(KindsFile, kindsTable); err != nil {
		t.Fatal(err)
	}
	rows, err := BuiltinBlocking()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range rows {
		if KindOf(b.Key) == KindUnknown {
			t.Errorf("%s:%d: %s has no kind in %s", BlockingFile, b.Line, b.Key, KindsFile)
		}
	}
}

func TestKindOf(t *testing.T) {
	for key, want := range map[string]Kind{
		"net/http.Get":             KindRemote,
		"net.Dial":                 KindRemote,
		"database/sql.(*DB).Query": KindStore,
		"github.com/go-redis/redis/v7.cmdable.Get":             KindStore,
		"github.com/aws/aws-sdk-go/service/s3.(*S3).GetObject": KindRemote,
		"os/exec.Command":                     KindLocal,
		"os.ReadFile":                         KindLocal,
		"time.Sleep":                          KindLocal,
		"sync.(*WaitGroup).Wait":              KindWait,
		"channel receive":                     KindWait,
		"example.com/app/store.(*Store).Load": KindUnknown,
		"time.Now":                            KindUnknown,
	} {
		if got := KindOf(key); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", key, got, want)
		}
	}
	if KindRemote.Order() != KindWait.Order() || !(KindWait.Order() < KindStore.Order() && KindStore.Order() < KindUnknown.Order() && KindUnknown.Order() < KindLocal.Order()) {
		t.Error("order: want remote = wait < store < unknown < local")
	}
}

func TestParseKindsErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"remote net/http.", `want "kind | prefix"`},
		{"far | net/http.", `kind "far"`},
		{"remote | a.\nstore | a.", `prefix "a." given twice`},
	} {
		_, err := ParseKinds("k.txt", tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseKinds(%q) = %v, want error containing %q", tc.in, err, tc.want)
		}
	}
}
