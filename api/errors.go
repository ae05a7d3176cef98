package api

import (
	"context"
	"errors"
	"net/http"

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
	codeInternal          = "internal"
)

// statusClientClosed is nginx's convention for "the client went away before
// we answered". Nobody reads the response; it exists for logs and metrics.
const statusClientClosed = 499

// errorBody is the JSON shape of every error response.
type errorBody struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

func abortError(c *gin.Context, status int, code, msg string) {
	c.AbortWithStatusJSON(status, errorBody{Error: msg, Code: code})
}

// abortUpstream maps the error of a profile or storage call to a response:
// our deadline → 504, the client going away → 499, anything else → 502 with
// the given code.
func abortUpstream(c *gin.Context, err error, code, what string) {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		abortError(c, http.StatusGatewayTimeout, codeUpstreamTimeout, what+" timed out")
	case errors.Is(err, context.Canceled) && c.Request.Context().Err() != nil:
		abortError(c, statusClientClosed, codeClientClosed, "client closed the request")
	default:
		abortError(c, http.StatusBadGateway, code, what+" failed: "+err.Error())
	}
}
