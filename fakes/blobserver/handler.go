package blobserver

import (
	"bytes"
	"crypto/md5"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// maxRangeMD5 is the largest range for which the service computes a range MD5.
const maxRangeMD5 = 4 << 20

// Handler returns the REST handler, for Start or for mounting under any server.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serveHTTP) }

// statusRecorder keeps the status for the request log.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w}
	defer func() {
		s.log.Debug("blobserver: request", "method", r.Method, "path", r.URL.Path, "query", r.URL.RawQuery,
			"status", rec.status, "dur", time.Since(start))
	}()

	h := rec.Header()
	h.Set("x-ms-request-id", s.nextRequestID())
	if v := r.Header.Get("x-ms-version"); v != "" {
		h.Set("x-ms-version", v)
	} else {
		h.Set("x-ms-version", serviceVersion)
	}
	if v := r.Header.Get("x-ms-client-request-id"); v != "" {
		h.Set("x-ms-client-request-id", v)
	}
	h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	h.Set("Server", "syncio-fake-blob")

	if d := s.delayFor(max(r.ContentLength, 0)); d > 0 && !s.wait(rec, r, d) {
		return
	}
	if s.injectFailure() {
		e := errorf(http.StatusServiceUnavailable, codeServerBusy, "injected failure: the server is busy")
		if s.failStatus == http.StatusInternalServerError {
			e = errorf(http.StatusInternalServerError, codeInternalError, "injected failure: internal error")
		}
		writeError(rec, r, e)
		return
	}
	if err := s.route(rec, r); err != nil {
		var se *storageError
		if !errors.As(err, &se) {
			s.log.Warn("blobserver: unexpected error", "err", err)
			se = errorf(http.StatusInternalServerError, codeInternalError, "%v", err)
		}
		writeError(rec, r, se)
	}
}

// wait sleeps d, the modelled storage time. It returns false, having answered if anyone
// listens, when the client went away or the server is closing.
func (s *Server) wait(w http.ResponseWriter, r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false // the client is gone; nobody reads an answer
	case <-s.closing:
		writeError(w, r, errorf(http.StatusServiceUnavailable, codeServerBusy, "the server is shutting down"))
		return false
	}
}

func unsupported(r *http.Request) error {
	return errorf(http.StatusNotImplemented, codeNotImplemented,
		"the fake blob server does not implement %s %s?%s", r.Method, r.URL.Path, r.URL.RawQuery)
}

// route dispatches by path depth, method and the restype/comp query parameters, as the
// service does. It writes successful responses itself and returns failures.
func (s *Server) route(w http.ResponseWriter, r *http.Request) error {
	account, cname, bname, err := splitPath(r.URL.Path)
	if err != nil || account != AccountName {
		return errorf(http.StatusNotFound, codeResourceNotFound, "unknown account in path %q (want %s)", r.URL.Path, AccountName)
	}
	if cname == "" {
		return unsupported(r) // account-level operations (list containers, service properties)
	}
	if !validContainerName(cname) {
		return errorf(http.StatusBadRequest, codeInvalidResourceName, "invalid container name %q", cname)
	}
	q := r.URL.Query()
	comp := q.Get("comp")
	if bname == "" {
		if q.Get("restype") != "container" || comp != "" {
			return unsupported(r)
		}
		switch r.Method {
		case http.MethodPut:
			return s.createContainer(w, r, cname)
		case http.MethodGet, http.MethodHead:
			return s.containerProperties(w, cname)
		case http.MethodDelete:
			if err := s.store.deleteContainer(cname); err != nil {
				return err
			}
			w.WriteHeader(http.StatusAccepted)
			return nil
		}
		return errorf(http.StatusMethodNotAllowed, codeUnsupportedHTTPVerb, "%s is not supported on a container", r.Method)
	}
	if !validBlobName(bname) {
		return errorf(http.StatusBadRequest, codeInvalidResourceName, "invalid blob name %q", bname)
	}
	switch {
	case r.Method == http.MethodPut && comp == "":
		return s.putBlob(w, r, cname, bname)
	case r.Method == http.MethodPut && comp == "block":
		return s.putBlock(w, r, cname, bname, q.Get("blockid"))
	case r.Method == http.MethodPut && comp == "blocklist":
		return s.putBlockList(w, r, cname, bname)
	case (r.Method == http.MethodGet || r.Method == http.MethodHead) && comp == "":
		return s.getBlob(w, r, cname, bname)
	case r.Method == http.MethodDelete && comp == "":
		if err := s.store.deleteBlob(cname, bname); err != nil {
			return err
		}
		w.WriteHeader(http.StatusAccepted)
		return nil
	case r.Method == http.MethodPut || r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodDelete:
		return unsupported(r)
	}
	return errorf(http.StatusMethodNotAllowed, codeUnsupportedHTTPVerb, "%s is not supported on a blob", r.Method)
}

// metadataFrom collects x-ms-meta-* request headers under lower-case names (Go has
// canonicalised their case; the service treats names case-insensitively).
func metadataFrom(h http.Header) map[string]string {
	var md map[string]string
	for k, v := range h {
		if name, ok := strings.CutPrefix(strings.ToLower(k), "x-ms-meta-"); ok && name != "" && len(v) > 0 {
			if md == nil {
				md = make(map[string]string)
			}
			md[name] = v[0]
		}
	}
	return md
}

func writeMetadata(h http.Header, md map[string]string) {
	for k, v := range md {
		h["x-ms-meta-"+k] = []string{v} // direct assignment keeps the stored spelling
	}
}

func setModified(h http.Header, etag string, t time.Time) {
	h.Set("ETag", etag)
	h.Set("Last-Modified", t.UTC().Format(http.TimeFormat))
}

func (s *Server) createContainer(w http.ResponseWriter, r *http.Request, name string) error {
	c, err := s.store.createContainer(name, metadataFrom(r.Header), time.Now())
	if err != nil {
		return err
	}
	setModified(w.Header(), c.etag, c.lastModified)
	w.WriteHeader(http.StatusCreated)
	return nil
}

func (s *Server) containerProperties(w http.ResponseWriter, name string) error {
	c, err := s.store.containerInfo(name)
	if err != nil {
		return err
	}
	h := w.Header()
	setModified(h, c.etag, c.lastModified)
	writeMetadata(h, c.metadata)
	h.Set("x-ms-lease-state", "available")
	h.Set("x-ms-lease-status", "unlocked")
	w.WriteHeader(http.StatusOK)
	return nil
}

// copyBufs are the buffers that move request bodies to disk. A pool keeps thousands of
// concurrent uploads from allocating 32 KiB each.
var copyBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// receive streams a write's body into the store's files, refusing more than the store could
// ever hold and checking a transactional Content-MD5 when the client sent one. It returns
// the reserved extent, which the caller commits or gives back with abortWrite, and the
// body's MD5. blockID is "" for Put Blob.
func (s *Server) receive(r *http.Request, cname, bname, blockID string) (extent, []byte, error) {
	if r.Header.Get("x-ms-structured-body") != "" {
		return extent{}, nil, errorf(http.StatusNotImplemented, codeNotImplemented, "structured message bodies (CRC64 transfer validation) are not supported by the fake")
	}
	limit := s.store.capacity // the staged allowance is as large (see stagedBlob)
	if limit <= 0 {
		limit = 5000 << 20 // the service's Put Blob maximum
	}
	if r.ContentLength > limit {
		return extent{}, nil, errorf(http.StatusRequestEntityTooLarge, codeRequestBodyTooLarge, "body of %d bytes exceeds %d", r.ContentLength, limit)
	}
	var (
		src io.Reader = r.Body
		n             = r.ContentLength
	)
	if n < 0 {
		// No Content-Length (chunked): the size must be known to reserve room, so read the
		// body first, still bounded by the limit.
		var buf bytes.Buffer
		m, err := buf.ReadFrom(io.LimitReader(r.Body, limit+1))
		if err != nil {
			return extent{}, nil, errorf(http.StatusBadRequest, codeInvalidHeaderValue, "reading body: %v", err)
		}
		if m > limit {
			return extent{}, nil, errorf(http.StatusRequestEntityTooLarge, codeRequestBodyTooLarge, "body exceeds %d bytes", limit)
		}
		src, n = &buf, m
	}
	var want []byte
	if v := r.Header.Get("Content-MD5"); v != "" {
		var err error
		if want, err = parseMD5("Content-MD5", v); err != nil {
			return extent{}, nil, err
		}
	}
	e, err := s.store.beginWrite(cname, bname, blockID, n)
	if err != nil {
		return extent{}, nil, err
	}
	h := md5.New()
	bp := copyBufs.Get().(*[]byte)
	got, err := io.CopyBuffer(io.MultiWriter(io.NewOffsetWriter(e.seg.f, e.off), h), io.LimitReader(src, n), *bp)
	copyBufs.Put(bp)
	switch {
	case err != nil && errors.Is(err, syscall.ENOSPC):
		s.store.abortWrite(e, blockID != "")
		return extent{}, nil, errFull("the disk under the fake's directory is full: %v", err)
	case err != nil:
		s.store.abortWrite(e, blockID != "")
		return extent{}, nil, errorf(http.StatusBadRequest, codeInvalidHeaderValue, "reading body: %v", err)
	case got != n:
		s.store.abortWrite(e, blockID != "")
		return extent{}, nil, errorf(http.StatusBadRequest, codeInvalidHeaderValue, "body ended after %d of %d bytes", got, n)
	}
	sum := h.Sum(nil)
	if want != nil && !bytes.Equal(sum, want) {
		s.store.abortWrite(e, blockID != "")
		return extent{}, nil, errorf(http.StatusBadRequest, codeMd5Mismatch, "Content-MD5 %s does not match the body's %s", r.Header.Get("Content-MD5"), base64.StdEncoding.EncodeToString(sum))
	}
	return e, sum, nil
}

// propsFrom reads the blob HTTP properties a write sets. Put Blob also honours plain
// Content-Type; Put Block List's Content-Type describes the XML body, not the blob.
func propsFrom(r *http.Request, plainContentType bool) (blobProps, error) {
	h := r.Header
	p := blobProps{
		contentType:        h.Get("x-ms-blob-content-type"),
		contentEncoding:    h.Get("x-ms-blob-content-encoding"),
		contentLanguage:    h.Get("x-ms-blob-content-language"),
		contentDisposition: h.Get("x-ms-blob-content-disposition"),
		cacheControl:       h.Get("x-ms-blob-cache-control"),
		metadata:           metadataFrom(h),
	}
	if p.contentType == "" && plainContentType {
		p.contentType = h.Get("Content-Type")
	}
	if p.contentType == "" {
		p.contentType = "application/octet-stream"
	}
	if v := h.Get("x-ms-blob-content-md5"); v != "" {
		sum, err := parseMD5("x-ms-blob-content-md5", v)
		if err != nil {
			return blobProps{}, err
		}
		p.contentMD5 = sum
	}
	return p, nil
}

// checkWriteConditions applies If-Match / If-None-Match to a write.
func (s *Server) checkWriteConditions(r *http.Request, cname, bname string) error {
	im, inm := r.Header.Get("If-Match"), r.Header.Get("If-None-Match")
	if im == "" && inm == "" {
		return nil
	}
	b, release, err := s.store.getBlob(cname, bname)
	var se *storageError
	if err != nil && (!errors.As(err, &se) || se.code != codeBlobNotFound) {
		return err
	}
	if release != nil {
		release() // only the ETag is needed, not the bytes
	}
	return writeConditions(b, im, inm)
}

func writeConditions(b *blob, ifMatch, ifNoneMatch string) error {
	notMet := errConditionNotMet()
	if ifMatch != "" && (b == nil || (ifMatch != "*" && ifMatch != b.etag)) {
		return notMet
	}
	if ifNoneMatch == "*" && b != nil {
		return errorf(http.StatusConflict, codeBlobAlreadyExists, "the specified blob already exists")
	}
	if ifNoneMatch != "" && ifNoneMatch != "*" && b != nil && ifNoneMatch == b.etag {
		return notMet
	}
	return nil
}

func (s *Server) putBlob(w http.ResponseWriter, r *http.Request, cname, bname string) error {
	switch bt := r.Header.Get("x-ms-blob-type"); bt {
	case "BlockBlob":
	case "":
		return errorf(http.StatusBadRequest, codeMissingRequiredHeader, "x-ms-blob-type is required")
	default:
		return errorf(http.StatusNotImplemented, codeNotImplemented, "blob type %q is not supported by the fake", bt)
	}
	props, err := propsFrom(r, true)
	if err != nil {
		return err
	}
	if err := s.checkWriteConditions(r, cname, bname); err != nil {
		return err
	}
	e, sum, err := s.receive(r, cname, bname, "")
	if err != nil {
		return err
	}
	if props.contentMD5 == nil {
		props.contentMD5 = sum
	}
	b, err := s.store.commitBlob(cname, bname, e, props, time.Now())
	if err != nil {
		return err
	}
	h := w.Header()
	setModified(h, b.etag, b.lastModified)
	h.Set("Content-MD5", base64.StdEncoding.EncodeToString(sum))
	w.WriteHeader(http.StatusCreated)
	return nil
}

func (s *Server) putBlock(w http.ResponseWriter, r *http.Request, cname, bname, id string) error {
	if err := parseBlockID(id); err != nil {
		return err
	}
	e, sum, err := s.receive(r, cname, bname, id)
	if err != nil {
		return err
	}
	if err := s.store.commitBlock(cname, bname, id, e); err != nil {
		return err
	}
	w.Header().Set("Content-MD5", base64.StdEncoding.EncodeToString(sum))
	w.WriteHeader(http.StatusCreated)
	return nil
}

func (s *Server) putBlockList(w http.ResponseWriter, r *http.Request, cname, bname string) error {
	props, err := propsFrom(r, false)
	if err != nil {
		return err
	}
	if err := s.checkWriteConditions(r, cname, bname); err != nil {
		return err
	}
	// A block list is at most 50,000 IDs of ≤ 88 base64 characters plus tags: 16 MiB is ample.
	refs, err := parseBlockList(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		return err
	}
	b, err := s.store.putBlockList(cname, bname, refs, props, time.Now())
	if err != nil {
		return err
	}
	setModified(w.Header(), b.etag, b.lastModified)
	w.WriteHeader(http.StatusCreated)
	return nil
}

func (s *Server) getBlob(w http.ResponseWriter, r *http.Request, cname, bname string) error {
	b, release, err := s.store.getBlob(cname, bname)
	if err != nil {
		return err
	}
	defer release()
	// Conditions on reads: If-Match guards the SDK's chunked downloads against a blob that
	// changes between chunks; a matching If-None-Match is a 304.
	if im := r.Header.Get("If-Match"); im != "" && im != "*" && im != b.etag {
		return errConditionNotMet()
	}
	size := b.size
	rng, ranged := byteRange{first: 0, last: size - 1}, false
	// x-ms-range takes precedence over Range, as in the service. HEAD is Get Blob
	// Properties, which has no ranges.
	spec := r.Header.Get("x-ms-range")
	if spec == "" {
		spec = r.Header.Get("Range")
	}
	if spec != "" && r.Method == http.MethodGet {
		if rng, err = parseRange(spec, size); err != nil {
			return err
		}
		ranged = true
	}
	wantRangeMD5 := r.Method == http.MethodGet && r.Header.Get("x-ms-range-get-content-md5") == "true"
	if wantRangeMD5 && (!ranged || rng.len() > maxRangeMD5) {
		return errorf(http.StatusBadRequest, codeInvalidHeaderValue, "x-ms-range-get-content-md5 needs a range of at most %d bytes", maxRangeMD5)
	}

	h := w.Header()
	setModified(h, b.etag, b.lastModified)
	h.Set("x-ms-creation-time", b.created.UTC().Format(http.TimeFormat))
	h.Set("x-ms-blob-type", "BlockBlob")
	h.Set("x-ms-lease-state", "available")
	h.Set("x-ms-lease-status", "unlocked")
	h.Set("Accept-Ranges", "bytes")
	h.Set("Content-Type", b.props.contentType)
	for k, v := range map[string]string{
		"Content-Encoding": b.props.contentEncoding, "Content-Language": b.props.contentLanguage,
		"Content-Disposition": b.props.contentDisposition, "Cache-Control": b.props.cacheControl,
	} {
		if v != "" {
			h.Set(k, v)
		}
	}
	writeMetadata(h, b.props.metadata)
	if inm := r.Header.Get("If-None-Match"); inm != "" && (inm == "*" || inm == b.etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}

	status, body := http.StatusOK, b.c
	switch {
	case ranged:
		status, body = http.StatusPartialContent, b.c.slice(rng.first, rng.len())
		h.Set("Content-Range", "bytes "+strconv.FormatInt(rng.first, 10)+"-"+strconv.FormatInt(rng.last, 10)+"/"+strconv.FormatInt(size, 10))
		if wantRangeMD5 {
			hash := md5.New()
			if _, err := io.Copy(hash, body.reader()); err != nil {
				return fmt.Errorf("reading %s/%s for its range MD5: %w", cname, bname, err)
			}
			h.Set("Content-MD5", base64.StdEncoding.EncodeToString(hash.Sum(nil)))
		}
		if b.props.contentMD5 != nil {
			h.Set("x-ms-blob-content-md5", base64.StdEncoding.EncodeToString(b.props.contentMD5))
		}
	case b.props.contentMD5 != nil:
		h.Set("Content-MD5", base64.StdEncoding.EncodeToString(b.props.contentMD5))
	}
	n := body.size()
	if r.Method == http.MethodGet {
		// The bytes leave at the modelled bandwidth: the wait comes before the answer, so
		// the client sees it as latency, as it would a slow transfer.
		if d := s.transferTime(n); d > 0 && !s.wait(w, r, d) {
			return nil
		}
	}
	h.Set("Content-Length", strconv.FormatInt(n, 10))
	w.WriteHeader(status)
	if r.Method == http.MethodGet {
		if _, err := io.Copy(w, body.reader()); err != nil {
			s.log.Debug("blobserver: client stopped reading", "blob", cname+"/"+bname, "err", err)
		}
	}
	return nil
}
