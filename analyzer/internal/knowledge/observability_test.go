package knowledge

import "testing"

func TestObservability(t *testing.T) {
	for path, want := range map[string]bool{
		"go.uber.org/zap":                                               true,
		"github.com/sirupsen/logrus":                                    true,
		"github.com/rs/zerolog/log":                                     true,
		"go.opentelemetry.io/otel/trace":                                true,
		"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp": true,
		"gopkg.in/DataDog/dd-trace-go.v1/ddtrace":                       true,
		"github.com/prometheus/client_golang/prometheus/metrics":        true,
		"github.com/go-logr/logr":                                       true,
		"cloud.google.com/go/logging":                                   true,
		// A service's own packages whose names merely contain a word.
		"github.com/acme/blog/store":         false,
		"github.com/acme/catalog-service/db": false,
		"github.com/acme/app/login":          false,
		"github.com/acme/app/backlog":        false,
		"github.com/acme/metricsless":        false,
		"github.com/acme/app/store":          false,
	} {
		if got := Observability(path); got != want {
			t.Errorf("Observability(%q) = %v, want %v", path, got, want)
		}
	}
	if !Metadata("google.golang.org/grpc/metadata") || Metadata("github.com/acme/metadatastore") {
		t.Error("Metadata must match grpc/metadata and not a word that contains it")
	}
}
