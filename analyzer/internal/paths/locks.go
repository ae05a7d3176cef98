package paths

import "strings"

// Whose lock is held (SIO003). A mutex locked through a method's own
// receiver (b.mu in a *Bucket method) is shared only if the receiver is:
// a per-request value that a handler makes, uses and drops has a lock no
// other request can wait on (pocketbase opens its S3 filesystem inside
// each backups handler; the blob bucket's read lock around each S3 call
// excludes nobody). Such a lock's description carries RecvLock, and each
// caller on the way up decides from the receiver of its call whether the
// lock stays its receiver's (a call on s.bucket in a method of s), is
// made per call and so dropped (a call on a local made by a New*
// constructor here and used only as a receiver), or becomes someone
// else's (anything else: the mark goes, the lock is reported as before).

// RecvLock prefixes a lock description (Finding.Lock, BlocksFact.Lock,
// DynCall.Lock) when the mutex is reached, through field selections only,
// from the receiver of the function the path is seen from. '@' cannot
// occur in a Go expression, so the mark never clashes with the lock's
// name; LockName strips it for messages.
const RecvLock = "@recv:"

// LockName is a lock description as a message shows it.
func LockName(desc string) string { return strings.TrimPrefix(desc, RecvLock) }

// Owner says how the receiver of a method call relates to the
// function making it (Item.RecvOwn).
type Owner int8

const (
	OwnOther Owner = iota // shared or unknown: a receiver-owned lock is reported
	OwnRecv               // the caller's own receiver, or a field of it
	OwnFresh              // a local made here by a constructor, used only as a receiver
)

// ThroughCall is a callee's lock description seen from a caller whose
// call's receiver relates to it as own says: a receiver-owned lock stays
// marked, is dropped when the receiver is made per call, and loses its
// mark otherwise.
func ThroughCall(lock string, own Owner) string {
	if !strings.HasPrefix(lock, RecvLock) {
		return lock
	}
	switch own {
	case OwnRecv:
		return lock
	case OwnFresh:
		return ""
	}
	return LockName(lock)
}

// OwnLocks applies ThroughCall to every path of f.
func OwnLocks(f *Finding, own Owner) *Finding {
	if f == nil || !strings.HasPrefix(f.Lock, RecvLock) && !anyOwnLock(f.More) {
		return f
	}
	g := *f
	g.Lock = ThroughCall(f.Lock, own)
	g.More = nil
	for _, m := range f.More {
		g.More = append(g.More, OwnLocks(m, own))
	}
	return &g
}

func anyOwnLock(fs []*Finding) bool {
	for _, f := range fs {
		if strings.HasPrefix(f.Lock, RecvLock) {
			return true
		}
	}
	return false
}
