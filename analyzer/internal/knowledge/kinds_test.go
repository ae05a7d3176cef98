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
	rows, err := BuiltinRows()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range rows {
		if b.Kind != KindBlocking {
			continue
		}
		if OpKindOf(b.Key) == OpUnknown {
			t.Errorf("%s:%d: %s has no kind in %s", b.File, b.Line, b.Key, KindsFile)
		}
	}
}

func TestKindOf(t *testing.T) {
	for key, want := range map[string]OpKind{
		"net/http.Get":             OpRemote,
		"net.Dial":                 OpRemote,
		"database/sql.(*DB).Query": OpStore,
		"github.com/go-redis/redis/v7.cmdable.Get":             OpStore,
		"github.com/aws/aws-sdk-go/service/s3.(*S3).GetObject": OpRemote,
		"os/exec.Command":                     OpLocal,
		"os.ReadFile":                         OpLocal,
		"time.Sleep":                          OpLocal,
		"sync.(*WaitGroup).Wait":              OpWait,
		"channel receive":                     OpWait,
		"example.com/app/store.(*Store).Load": OpUnknown,
		"time.Now":                            OpUnknown,

		"github.com/alitto/pond.(*TaskGroup).Wait":                  OpWait,
		"github.com/sourcegraph/conc.(*WaitGroup).Wait":             OpWait,
		"github.com/sourcegraph/conc/pool.(*ContextPool).Wait":      OpWait,
		"github.com/gammazero/workerpool.(*WorkerPool).StopWait":    OpWait,
		"github.com/panjf2000/ants/v2.(*poolCommon).ReleaseTimeout": OpWait,
	} {
		if got := OpKindOf(key); got != want {
			t.Errorf("OpKindOf(%q) = %v, want %v", key, got, want)
		}
	}
	ordered := OpWait.Order() < OpStore.Order() && OpStore.Order() < OpUnknown.Order() && OpUnknown.Order() < OpLocal.Order()
	if OpRemote.Order() != OpWait.Order() || !ordered {
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
