package api

import (
	"context"
	"log/slog"
	"regexp"
)

// secretPattern matches the secrets a storage connection string can put in
// an error or a URL: a SAS signature (sig=…, in a query or a connection
// string) and a shared account key (AccountKey=…).
var secretPattern = regexp.MustCompile(`(?i)\b(sig=|AccountKey=)[^&;\s"'\\]+`)

// redact replaces every secret in s with REDACTED, keeping the key name so a
// reader still sees that one was there.
func redact(s string) string { return secretPattern.ReplaceAllString(s, "${1}REDACTED") }

// redactingHandler is a slog.Handler that redacts the message and every
// string, error and Stringer attribute before the next handler sees them.
// Start wraps the server's logger in it, so no log line of the API, the
// embedded fakes, net/http or the Temporal SDK carries a storage secret.
type redactingHandler struct{ next slog.Handler }

func newRedactingHandler(next slog.Handler) slog.Handler {
	if _, ok := next.(redactingHandler); ok {
		return next
	}
	return redactingHandler{next}
}

func (h redactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h redactingHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, redact(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h redactingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i] = redactAttr(a)
	}
	return redactingHandler{h.next.WithAttrs(red)}
}

func (h redactingHandler) WithGroup(name string) slog.Handler {
	return redactingHandler{h.next.WithGroup(name)}
}

func redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, redact(v.String()))
	case slog.KindGroup:
		g := v.Group()
		red := make([]any, len(g))
		for i, ga := range g {
			red[i] = redactAttr(ga)
		}
		return slog.Group(a.Key, red...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			return slog.String(a.Key, redact(x.Error()))
		case interface{ String() string }:
			return slog.String(a.Key, redact(x.String()))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// redactedError hides secrets in an error's text while keeping it
// unwrappable; Start returns its errors so, since the CLI prints them.
type redactedError struct{ err error }

func (e redactedError) Error() string { return redact(e.err.Error()) }
func (e redactedError) Unwrap() error { return e.err }
