package knowledge

import "strings"

// observabilityWords name logging, tracing and metrics libraries. A call into
// one takes a context to label or export, not to cancel I/O the request
// waits for, and its interfaces (a logger, a span exporter) are not the
// service's storage.
var observabilityWords = map[string]bool{
	"log": true, "logs": true, "logger": true, "logging": true, "logr": true, "logrus": true,
	"slog": true, "glog": true, "klog": true, "zap": true, "zapcore": true, "zerolog": true,
	"otel": true, "otelhttp": true, "otelgrpc": true, "opentelemetry": true,
	"trace": true, "tracing": true, "opentracing": true, "tracer": true, "metric": true, "metrics": true,
}

// Observability reports whether the import path is a logging, tracing or
// metrics package. It matches whole words of the path's elements (split at
// "/", ".", "-" and "_"), so go.uber.org/zap, go.opentelemetry.io/otel/trace
// and dd-trace-go match, while a service's own blog, catalog or login
// package does not: matching substrings turned off interface dispatch for
// every package of a module named …/blog.
// A word starting with "otel" (otelslog, otelzap) is OpenTelemetry's too.
func Observability(path string) bool {
	return anyWord(path, func(w string) bool { return observabilityWords[w] || strings.HasPrefix(w, "otel") })
}

// Metadata reports whether the path is a package of request metadata
// (gRPC's metadata: it reads the context's values and does no I/O).
func Metadata(path string) bool {
	return anyWord(path, func(w string) bool { return w == "metadata" })
}

func anyWord(path string, match func(word string) bool) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(path), func(r rune) bool {
		return r == '/' || r == '.' || r == '-' || r == '_'
	}) {
		if match(w) {
			return true
		}
	}
	return false
}
