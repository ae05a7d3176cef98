// Package crash ends the process after flushing a crash report, as a
// service's fatal logger does: a handler's branch that ends in a call of
// Exit is no request path, under every driver (paths.ExitsFact).
package crash

import (
	"net/http"
	"net/url"
	"os"
)

func Exit(msg string) {
	_, _ = http.Get("http://crash.internal/flush?m=" + url.QueryEscape(msg))
	os.Exit(1)
}
