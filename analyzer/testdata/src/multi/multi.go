// Package multi has handlers calling helpers that lead to several rules:
// one diagnostic per rule at the call, and one SIO003 for the lock.
package multi

import (
	"net/http"
	"sync"

	"multi/dep"
)

var mu sync.Mutex

func Fetch(w http.ResponseWriter, r *http.Request) {
	_ = dep.Fetch("http://x") // want `^Fetch calls dep.Fetch → http.Transport\{\}, which builds.*\(SIO004\)$` `^Fetch calls dep.Fetch → net/http.Get, which blocks without the request context.*\(SIO001\)$`
}

func Retry(w http.ResponseWriter, r *http.Request) {
	_ = dep.Retry("http://x") // want `\(SIO004\)$` `^Retry calls dep.Retry → dep.Fetch → net/http.Get, which.*\(SIO001\)$` `^Retry calls dep.Retry → time.Sleep, which waits.*\(SIO005\)$`
}

// Locked holds mu across the helper: SIO003 once, with the rule findings.
func Locked(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	defer mu.Unlock()
	_ = dep.Fetch("http://x") // want `\(SIO004\)$` `^Locked calls dep.Fetch → net/http.Get, which blocks without the request context;.*\(SIO001\)$` `^Locked calls dep.Fetch → net/http.Get, which blocks without the request context while mu \(locked at multi.go:[0-9]+\) is held.*\(SIO003\)$`
}

// local builds a transport and sleeps, in this package.
func local() { // want local:`^blocks\(SIO004: http.Transport\{\}\) \+ blocks\(SIO005: multi.sleep → dep.Sleep → time.Sleep\)$`
	_ = &http.Transport{}
	sleep()
}

func sleep() { // want sleep:`^blocks\(SIO005: dep.Sleep → time.Sleep\)$`
	dep.Sleep()
}

func Local(w http.ResponseWriter, r *http.Request) {
	local() // want `^Local calls multi.local → http.Transport\{\}.*\(SIO004\)$` `^Local calls multi.local → multi.sleep → dep.Sleep → time.Sleep, which waits.*\(SIO005\)$`
}
