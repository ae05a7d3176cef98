package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/gin-gonic/gin"
)

// Error codes of the JSON error body. Clients and the load lab match on them.
const (
	codeQueueFull         = "queue_full"
	codeInvalidInstancing = "invalid_instancing"
	codeInvalidClient     = "invalid_client"
	codeInvalidSize       = "invalid_size"
	codeInvalidBody       = "invalid_body"
	codeTooLarge          = "too_large"
	codeInvalidName       = "invalid_name"
	codeNotFound          = "not_found"
	codeMethodNotAllowed  = "method_not_allowed"
	codeUpstreamTimeout   = "upstream_timeout"
	codeUpstreamError     = "upstream_error"
	codeStorageError      = "storage_error"
	codeStorageDown       = "storage_unavailable"
	codeStorageFull       = "storage_full"
	codeClientClosed      = "client_closed"
	codeUploadsBusy       = "uploads_busy"
	codeBodyTimeout       = "body_timeout"
	codeInternal          = "internal"
)

// statusClientClosed is nginx's convention for "the client went away before
// we answered". Nobody reads the response; it exists for logs and metrics.
const statusClientClosed = 499

// errorBody is the JSON shape of every error response. RequestID is also
// the X-Request-ID header and the request_id of the server's log lines, so
// a client's report can be matched with what the server logged.
type errorBody struct {
	Error     string `json:"error"`
	Code      string `json:"code"`
	RequestID string `json:"requestId,omitempty"`
}

// requestIDKey is where requestID keeps the ID in the gin context.
const requestIDKey = "syncio.requestID"

// requestID gives every request a server-made ID (a client-sent one could
// be anything, so it is not trusted into logs).
func requestID(c *gin.Context) {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	id := hex.EncodeToString(b[:])
	c.Set(requestIDKey, id)
	c.Header("X-Request-ID", id)
	c.Next()
}

// abortError answers with a message written for the client. msg must be
// one of ours: never an error's text, which may carry storage URLs, SAS
// signatures or file paths. Errors go through abortUpstream instead.
func abortError(c *gin.Context, status int, code, msg string) {
	c.AbortWithStatusJSON(status, errorBody{Error: msg, Code: code, RequestID: c.GetString(requestIDKey)})
}

// abortUpstream is the one mapper from an internal error (profile, storage,
// Temporal, the order workflow) to a response: our deadline → 504, the
// client going away → 499, storage full → 507, anything else → 502 with
// the given code. The client gets the code, a fixed message naming what
// failed, storage's HTTP status and error code when it answered, and the
// request ID; the error itself only reaches the server log (observe logs
// c.Errors, and the logger redacts SAS signatures and account keys).
func abortUpstream(c *gin.Context, err error, code, what string) {
	_ = c.Error(err)
	answerUpstream(c, err, code, what)
}

// answerUpstream is abortUpstream without logging err, for a caller that
// logs more than it maps (respondOrder: a run's fault, and its
// compensations' errors).
func answerUpstream(c *gin.Context, err error, code, what string) {
	var re *azcore.ResponseError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		abortError(c, http.StatusGatewayTimeout, codeUpstreamTimeout, what+" timed out")
	case errors.Is(err, context.Canceled) && c.Request.Context().Err() != nil:
		abortError(c, statusClientClosed, codeClientClosed, "client closed the request")
	case storageFull(err):
		abortError(c, http.StatusInsufficientStorage, codeStorageFull,
			"storage is full: nothing was stored by this request (what was stored earlier is kept)")
	case errors.As(err, &re):
		abortError(c, http.StatusBadGateway, code, fmt.Sprintf("%s failed: storage answered %d %s", what, re.StatusCode, re.ErrorCode))
	default:
		abortError(c, http.StatusBadGateway, code, what+" failed")
	}
}

// storageFull reports a storage answer of 507 Insufficient Storage: the
// embedded fake at its cap. The client gets 507 too, not a 502: the store
// works, it is full, and retrying will not help until space is freed.
func storageFull(err error) bool {
	var re *azcore.ResponseError
	return errors.As(err, &re) && re.StatusCode == http.StatusInsufficientStorage
}
