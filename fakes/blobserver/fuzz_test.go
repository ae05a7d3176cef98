package blobserver

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestParseRange(t *testing.T) {
	for _, tc := range []struct {
		spec        string
		size        int64
		first, last int64
		status      int // 0 = success
	}{
		{"bytes=0-9", 100, 0, 9, 0},
		{"bytes=10-", 100, 10, 99, 0},
		{"bytes=90-200", 100, 90, 99, 0},
		{"bytes=-10", 100, 90, 99, 0},
		{"bytes=-1000", 100, 0, 99, 0},
		{" bytes=5-5 ", 100, 5, 5, 0},
		{"bytes=100-", 100, 0, 0, 416},
		{"bytes=0-", 0, 0, 0, 416},
		{"bytes=-0", 100, 0, 0, 416},
		{"bytes=9-1", 100, 0, 0, 400},
		{"bytes=+1-2", 100, 0, 0, 400},
		{"bytes=0-1,5-6", 100, 0, 0, 400},
		{"items=0-1", 100, 0, 0, 400},
		{"bytes=", 100, 0, 0, 400},
		{"bytes=-", 100, 0, 0, 400},
		{"bytes=99999999999999999999-", 100, 0, 0, 400},
	} {
		got, err := parseRange(tc.spec, tc.size)
		if tc.status == 0 {
			if err != nil || got.first != tc.first || got.last != tc.last {
				t.Errorf("parseRange(%q, %d) = %+v, %v; want %d-%d", tc.spec, tc.size, got, err, tc.first, tc.last)
			}
			continue
		}
		var se *storageError
		if !errors.As(err, &se) || se.status != tc.status {
			t.Errorf("parseRange(%q, %d) err = %v, want status %d", tc.spec, tc.size, err, tc.status)
		}
	}
}

func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"bytes=0-9", "bytes=10-", "bytes=-10", "bytes=9-1", "bytes=0-1,2-3", "bytes=--1", "bytes=1-9223372036854775807"} {
		f.Add(s, int64(100))
	}
	f.Add("bytes=0-", int64(0))
	f.Fuzz(func(t *testing.T, spec string, size int64) {
		if size < 0 {
			return // sizes come from stored blobs, never negative
		}
		r, err := parseRange(spec, size)
		if err != nil {
			var se *storageError
			if !errors.As(err, &se) || (se.status != http.StatusBadRequest && se.status != http.StatusRequestedRangeNotSatisfiable) {
				t.Fatalf("parseRange(%q, %d): unexpected error %v", spec, size, err)
			}
			return
		}
		if r.first < 0 || r.first > r.last || r.last >= size {
			t.Fatalf("parseRange(%q, %d) = %+v: outside the blob", spec, size, r)
		}
	})
}

func TestParseBlockList(t *testing.T) {
	a, b := "QUFBQQ==", "QkJCQg=="
	refs, err := parseBlockList(strings.NewReader(xml.Header +
		"<BlockList><Latest>" + a + "</Latest><Committed>" + b + "</Committed><Uncommitted> " + a + " </Uncommitted></BlockList>"))
	if err != nil {
		t.Fatal(err)
	}
	want := []blockRef{{fromLatest, a}, {fromCommitted, b}, {fromUncommitted, a}}
	if len(refs) != len(want) {
		t.Fatalf("refs = %+v", refs)
	}
	for i := range want {
		if refs[i] != want[i] {
			t.Errorf("ref %d = %+v, want %+v", i, refs[i], want[i])
		}
	}
	for _, bad := range []string{
		"", "<Other/>", "<BlockList><Latest>not base64!</Latest></BlockList>",
		"<BlockList><Bogus>QUFBQQ==</Bogus></BlockList>", "<BlockList><Latest>QUFBQQ==</Latest>",
		"<BlockList>text</BlockList>", "<BlockList/><BlockList/>",
		"<BlockList><Latest>" + strings.Repeat("QUFB", 30) + "</Latest></BlockList>", // 90 bytes > 64
	} {
		if _, err := parseBlockList(strings.NewReader(bad)); err == nil {
			t.Errorf("parseBlockList(%q) accepted", bad)
		}
	}
	if refs, err := parseBlockList(strings.NewReader("<BlockList></BlockList>")); err != nil || len(refs) != 0 {
		t.Errorf("empty list: %v, %v", refs, err)
	}
}

// encodeBlockList writes refs the way the SDK would, interleaving kinds in order.
func encodeBlockList(refs []blockRef) []byte {
	var buf bytes.Buffer
	buf.WriteString("<BlockList>")
	for _, r := range refs {
		name := r.source.String()
		buf.WriteString("<" + name + ">")
		_ = xml.EscapeText(&buf, []byte(r.id))
		buf.WriteString("</" + name + ">")
	}
	buf.WriteString("</BlockList>")
	return buf.Bytes()
}

func FuzzParseBlockList(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0" encoding="utf-8"?><BlockList><Latest>QUFBQQ==</Latest></BlockList>`))
	f.Add([]byte(`<BlockList><Committed>QQ==</Committed><Uncommitted>Qg==</Uncommitted><Latest>Qw==</Latest></BlockList>`))
	f.Add([]byte(`<BlockList><Latest><![CDATA[QUFBQQ==]]></Latest></BlockList>`))
	f.Add([]byte(`<BlockList><Latest>QUFBQQ==</Latest><!-- c --></BlockList>`))
	f.Add([]byte(`<BlockList xmlns="x"><Latest>%%%</Latest></BlockList>`))
	f.Add([]byte(`<BlockList><Latest><Latest>QQ==</Latest></Latest></BlockList>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		refs, err := parseBlockList(bytes.NewReader(data))
		if err != nil {
			var se *storageError
			if !errors.As(err, &se) || se.status != http.StatusBadRequest {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		for _, r := range refs {
			if err := parseBlockID(r.id); err != nil {
				t.Fatalf("accepted invalid block ID %q: %v", r.id, err)
			}
		}
		// What was accepted must survive a canonical round trip unchanged.
		again, err := parseBlockList(bytes.NewReader(encodeBlockList(refs)))
		if err != nil {
			t.Fatalf("re-encoded list rejected: %v", err)
		}
		if len(again) != len(refs) {
			t.Fatalf("round trip: %d refs, want %d", len(again), len(refs))
		}
		for i := range refs {
			if again[i] != refs[i] {
				t.Fatalf("round trip ref %d: %+v, want %+v", i, again[i], refs[i])
			}
		}
	})
}

func FuzzBlockID(f *testing.F) {
	for _, s := range []string{"QUFBQQ==", "", "QQ", "====", strings.Repeat("QUFB", 22), "YWJj\n", "-_-_"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		err := parseBlockID(id)
		if err == nil {
			if raw, derr := decodeStd(id); derr != nil || len(raw) == 0 || len(raw) > maxBlockIDBytes {
				t.Fatalf("accepted %q", id)
			}
		}
	})
}

// FuzzHandler throws arbitrary requests at a server holding one container and one blob.
// Whatever the input, it must answer (no panic) with a real status, well-formed common
// headers, and an x-ms-error-code on every error.
func FuzzHandler(f *testing.F) {
	f.Add("GET", "/devstoreaccount1/c01/blob", "", "x-ms-range", "bytes=0-3", []byte(nil))
	f.Add("HEAD", "/devstoreaccount1/c01/blob", "", "Range", "bytes=-2", []byte(nil))
	f.Add("PUT", "/devstoreaccount1/c01/new", "", "x-ms-blob-type", "BlockBlob", []byte("data"))
	f.Add("PUT", "/devstoreaccount1/c01/new", "comp=block&blockid=QUFBQQ%3D%3D", "Content-MD5", "bad", []byte("data"))
	f.Add("PUT", "/devstoreaccount1/c01/new", "comp=blocklist", "x-ms-blob-content-md5", "AAAAAAAAAAAAAAAAAAAAAA==", []byte("<BlockList><Latest>QUFBQQ==</Latest></BlockList>"))
	f.Add("PUT", "/devstoreaccount1/c02", "restype=container", "x-ms-meta-a", "b", []byte(nil))
	f.Add("DELETE", "/devstoreaccount1/c01", "restype=container", "", "", []byte(nil))
	f.Add("GET", "/devstoreaccount1", "comp=list", "", "", []byte(nil))
	f.Add("PATCH", "/other/c01/blob", "", "If-Match", "\"x\"", []byte(nil))
	f.Fuzz(func(t *testing.T, method, path, query, hname, hvalue string, body []byte) {
		s := New(WithMaxBytes(1 << 20))
		defer s.Close()
		now := time.Now()
		if _, err := s.store.createContainer("c01", nil, now); err != nil {
			t.Fatal(err)
		}
		if _, err := s.store.putBytes("c01", "blob", []byte("hello"), blobProps{contentType: "text/plain"}, now); err != nil {
			t.Fatal(err)
		}
		r := &http.Request{
			Method:        method,
			URL:           &url.URL{Path: path, RawQuery: query},
			Header:        http.Header{},
			Body:          http.NoBody,
			ContentLength: int64(len(body)),
		}
		if len(body) > 0 {
			r.Body = readCloser{bytes.NewReader(body)}
		}
		if hname != "" {
			r.Header.Set(hname, hvalue)
		}
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		if w.Code < 200 || w.Code > 599 {
			t.Fatalf("status %d", w.Code)
		}
		if _, err := http.ParseTime(w.Header().Get("Date")); err != nil {
			t.Fatalf("bad Date header %q", w.Header().Get("Date"))
		}
		if w.Code >= 400 && w.Header().Get("x-ms-error-code") == "" {
			t.Fatalf("%d without x-ms-error-code", w.Code)
		}
		if w.Code == http.StatusInternalServerError {
			t.Fatalf("internal error for %s %s?%s: %s", method, path, query, w.Body.String())
		}
		if lm := w.Header().Get("Last-Modified"); lm != "" {
			if _, err := http.ParseTime(lm); err != nil {
				t.Fatalf("bad Last-Modified %q", lm)
			}
		}
		if md := w.Header().Get("Content-MD5"); md != "" {
			if raw, err := decodeStd(md); err != nil || len(raw) != 16 {
				t.Fatalf("bad Content-MD5 %q", md)
			}
		}
		if used := s.UsedBytes(); used < 0 || used > 1<<20 {
			t.Fatalf("accounting broke: %d bytes used", used)
		}
	})
}

func decodeStd(s string) ([]byte, error) { return base64.StdEncoding.DecodeString(s) }

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }
