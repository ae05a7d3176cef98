// want package:`pending\(0, dropped 1\)`

// Package inmem: a value built by an in-memory constructor does no I/O in
// its methods, whatever its type's other implementations do. sftpgo's
// kms.(*Secret).Encrypt holds the secret's lock across
// localsecrets.NewKeeper(key).Encrypt(context.Background(), …): 52 false
// SIO003 and three SIO002 there before (issue 35).
package inmem

import (
	"context"
	"net/http"
	"sync"

	"gocloud.dev/secrets"
	"gocloud.dev/secrets/localsecrets"
)

type secret struct {
	mu     sync.Mutex
	remote *secrets.Keeper // a cloud KMS, built where this package cannot see
}

var shared = &secret{}

// Local seals with the local keeper under the lock: silent.
func Local(w http.ResponseWriter, r *http.Request) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	keeper := localsecrets.NewKeeper([32]byte{})
	defer keeper.Close()
	_, _ = keeper.Encrypt(context.Background(), []byte(r.FormValue("p")))
}

// Remote seals with a keeper of unknown kind under the lock: its call is
// presumed to do I/O (SIO003), and it is given context.Background()
// (SIO002).
func Remote(w http.ResponseWriter, r *http.Request) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	_, _ = shared.remote.Encrypt(context.Background(), []byte(r.FormValue("p"))) // want `Encrypt is given context.Background\(\)` `while shared.mu \(locked at inmem.go:\d+\) is held`
}

// Reassigned: a local keeper that may also be the remote one is not
// taken as in-memory: its context.Background() is held, as every call
// into a keeper of unknown kind is, for the package that sees what the
// driver interface is bound to (the package fact above).
func Reassigned(w http.ResponseWriter, r *http.Request) {
	keeper := localsecrets.NewKeeper([32]byte{})
	if r.FormValue("kms") != "" {
		keeper = shared.remote
	}
	_, _ = keeper.Encrypt(context.Background(), nil)
}
