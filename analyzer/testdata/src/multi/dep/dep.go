// Package dep has helpers that lead to operations of several rules: the
// fact carries the paths of each rule, so the root reports each of them.
package dep

import (
	"net/http"
	"time"
)

// Fetch builds a client per call and uses the context-less http.Get.
func Fetch(url string) error { // want Fetch:`^blocks\(SIO004: http.Transport\{\}\) \+ blocks\(SIO001: net/http.Get\)$`
	c := &http.Client{Transport: &http.Transport{}}
	_ = c
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Retry reaches Fetch twice and sleeps: the same operations twice are one
// path each.
func Retry(url string) error { // want Retry:`^blocks\(SIO004: dep.Fetch → http.Transport\{\}\) \+ blocks\(SIO001: dep.Fetch → net/http.Get\) \+ blocks\(SIO005: time.Sleep\)$`
	if err := Fetch(url); err == nil {
		return nil
	}
	time.Sleep(time.Millisecond)
	return Fetch(url)
}

// Sleep waits a moment.
func Sleep() { time.Sleep(time.Millisecond) } // want Sleep:`blocks\(SIO005: time.Sleep\)`
