package blockwatch

import "strings"

// Kind is what a parked goroutine waits on.
type Kind string

// The wait kinds, from the frames of a goroutine's stack.
const (
	Network Kind = "network" // netpoller wait, or an HTTP round trip
	Syscall Kind = "syscall" // in a system call (file I/O, cgo-like waits)
	Sleep   Kind = "sleep"   // time.Sleep
	Channel Kind = "channel" // channel send/receive, select
	Lock    Kind = "lock"    // sync.Mutex / RWMutex
	Sync    Kind = "sync"    // WaitGroup, Cond, other runtime semaphores
	Other   Kind = "other"   // parked in something not recognised
)

// kindFrames maps the function that identifies a wait to its kind. The
// HTTP client entries come first in matching (see classify): a round trip
// parks in a select, and must count as network, not channel.
var kindFrames = map[string]Kind{
	"internal/poll.runtime_pollWait": Network,

	"time.Sleep": Sleep,

	"runtime.chanrecv":  Channel,
	"runtime.chanrecv1": Channel,
	"runtime.chanrecv2": Channel,
	"runtime.chansend":  Channel,
	"runtime.chansend1": Channel,
	"runtime.selectgo":  Channel,
	"runtime.block":     Channel, // select {}

	"sync.(*Mutex).Lock":                    Lock,
	"sync.(*RWMutex).Lock":                  Lock,
	"sync.(*RWMutex).RLock":                 Lock,
	"internal/sync.runtime_SemacquireMutex": Lock,
	"sync.runtime_SemacquireRWMutex":        Lock,
	"sync.runtime_SemacquireRWMutexR":       Lock,

	"sync.(*WaitGroup).Wait":           Sync,
	"sync.runtime_SemacquireWaitGroup": Sync,
	"sync.(*Cond).Wait":                Sync,
	"sync.runtime_notifyListWait":      Sync,
	"sync.runtime_Semacquire":          Sync,
}

// networkCallers are frames above the park that make any wait a network
// wait: the HTTP client waits for its response on channels, and an
// HTTP/2 body, a request's on the server or a response's on the client,
// is read from a pipe that the connection's read loop fills, which parks
// on a sync.Cond (an HTTP/1 body read parks in the netpoller, which
// kindFrames already calls network). Around the pipe the HTTP/2 body
// readers and the server's response writes hand flow-control and frames
// to the connection's serve loop over channels: a select under those
// frames waits on the connection too, not on a channel of the handler's
// (a server's body read parks there for a moment after every read, and
// a sample that caught it read as a channel wait).
var networkCallers = []string{
	"net/http.(*persistConn).roundTrip",
	"net/http.(*Transport).roundTrip",
	"net/http.(*http2ClientConn).roundTrip",
	"golang.org/x/net/http2.(*ClientConn).roundTrip",
	"golang.org/x/net/http2.(*ClientConn).RoundTrip",
	"net/http.(*http2pipe).Read",
	"golang.org/x/net/http2.(*pipe).Read",
	"net/http.(*http2requestBody).Read",
	"golang.org/x/net/http2.(*requestBody).Read",
	"net/http.http2transportResponseBody.Read",
	"golang.org/x/net/http2.transportResponseBody.Read",
	"net/http.(*http2serverConn).writeFrameFromHandler",
	"net/http.(*http2serverConn).writeDataFromHandler",
	"net/http.(*http2serverConn).writeHeaders",
	"golang.org/x/net/http2.(*serverConn).writeFrameFromHandler",
	"golang.org/x/net/http2.(*serverConn).writeDataFromHandler",
	"golang.org/x/net/http2.(*serverConn).writeHeaders",
}

// gcFrames are frames under which a park is the allocator paying for GC:
// an assist (gcParkAssist, gcAssistAlloc), or waiting in gcStart for a
// collection to start, which a goroutine whose allocation crossed the
// trigger does while another starts it (the semaphore it parks on is
// runtime-internal, so no kindFrames entry matched and it read as a wait
// of kind other). Every park inside runtime.mallocgc is one of these, so
// mallocgc is the mark; gcStart alone is not, since runtime.GC, a
// collection the code asked for, parks there too. On a starved process
// starting a collection takes long, and the compute-only route of the
// accuracy run read a third blocked.
var gcFrames = map[string]bool{
	"runtime.gcParkAssist":  true,
	"runtime.gcAssistAlloc": true,
	"runtime.mallocgc":      true,
}

// classify says whether the goroutine with stack fs (innermost first) is
// parked, on what, and at which frame. A running or runnable goroutine is
// not blocked.
func classify(fs []Frame) (kind Kind, at int, blocked bool) {
	if len(fs) == 0 {
		return "", 0, false
	}
	leaf := fs[0].Func
	switch {
	case leaf == "runtime.gopark" || leaf == "runtime.goparkunlock":
	case isSyscall(leaf):
		return Syscall, 0, true
	default:
		return "", 0, false
	}
	for _, f := range fs {
		if gcFrames[f.Func] {
			// Parked inside an allocation, until the collector has done
			// the marking this allocation owes or until a collection this
			// allocation triggered has started: the goroutine pays for GC,
			// it does not wait on anything the code asked for.
			return "", 0, false
		}
	}
	for i, f := range fs {
		for _, c := range networkCallers {
			if f.Func == c {
				return Network, i, true
			}
		}
	}
	for i, f := range fs {
		if k, ok := kindFrames[f.Func]; ok {
			return k, i, true
		}
		if isSyscall(f.Func) {
			return Syscall, i, true
		}
	}
	return Other, 0, true
}

func isSyscall(fn string) bool {
	return strings.HasPrefix(fn, "syscall.Syscall") || strings.HasPrefix(fn, "syscall.RawSyscall") ||
		strings.HasPrefix(fn, "internal/runtime/syscall.Syscall") || fn == "syscall.syscall" ||
		strings.HasPrefix(fn, "runtime.cgocall")
}
