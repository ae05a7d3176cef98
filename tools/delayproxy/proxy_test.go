package main

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The proxy forwards whole requests and responses, in order, over
// keep-alive connections, and a response cannot come back before the delay
// (a lower bound only: no wall-time upper bound is asserted).
func TestProxyForwardsAndDelays(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		_, _ = w.Write([]byte(strings.ToUpper(string(b))))
	}))
	defer up.Close()
	const delay = 30 * time.Millisecond
	p, err := Listen("127.0.0.1:0", strings.TrimPrefix(up.URL, "http://"), delay, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	for i, body := range []string{"hello", strings.Repeat("x", 200<<10), "again"} {
		start := time.Now()
		resp, err := hc.Post("http://"+p.Addr()+"/", "text/plain", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || string(got) != strings.ToUpper(body) {
			t.Fatalf("request %d: %d bytes back, err %v", i, len(got), err)
		}
		if el := time.Since(start); el < delay {
			t.Fatalf("request %d answered after %v, before the %v delay", i, el, delay)
		}
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	if code := run([]string{"-delay", "-1s"}, io.Discard, io.Discard); code != 2 {
		t.Fatalf("negative delay: exit %d, want 2", code)
	}
	if code := run([]string{"-nope"}, io.Discard, io.Discard); code != 2 {
		t.Fatalf("unknown flag: exit %d, want 2", code)
	}
}
