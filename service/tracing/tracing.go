// Package tracing sends the server's OpenTelemetry traces to an OTLP collector, when one is
// named: the gRPC calls (otelgrpc's stats handler), and the spans of Orrery's own work, each
// match's create, its decisions and the store's commits, named by match id and seat. No span
// carries a token, a seed, an action or anything else a seat may not know: only ids, seats,
// plies, counts and outcomes. Off unless an endpoint is given.
package tracing

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// The attributes of Orrery's spans.
const (
	MatchID    = attribute.Key("orrery.match_id")
	MatchIDs   = attribute.Key("orrery.match_ids") // a store commit's matches
	Game       = attribute.Key("orrery.game")
	Seat       = attribute.Key("orrery.seat")
	Seats      = attribute.Key("orrery.seats")
	Ply        = attribute.Key("orrery.ply")
	DecisionID = attribute.Key("orrery.decision_id")
	Outcome    = attribute.Key("orrery.outcome") // how a decision ended: answered, timed_out, withdrawn, ended
	Reason     = attribute.Key("orrery.end_reason")
	Steps      = attribute.Key("orrery.steps")
	Results    = attribute.Key("orrery.results")
)

// EnvEndpoint is the standard variable that names the collector when no flag does.
const EnvEndpoint = "OTEL_EXPORTER_OTLP_ENDPOINT"

// Endpoint is the collector to send to: flag if set, else the environment's
// OTEL_EXPORTER_OTLP_ENDPOINT; "" means tracing is off.
func Endpoint(flag string) string {
	if flag != "" {
		return flag
	}
	return os.Getenv(EnvEndpoint)
}

// Setup starts a tracer provider that batches spans to the OTLP/gRPC collector at endpoint:
// a URL (http://host:4317 is plaintext, https:// is TLS) or host:port (plaintext, for a
// collector on the same host or network). Stop flushes what is batched and stops it.
func Setup(ctx context.Context, endpoint, node string) (tp *sdktrace.TracerProvider, err error) {
	var opt otlptracegrpc.Option
	switch {
	case endpoint == "":
		return nil, fmt.Errorf("tracing: no OTLP endpoint")
	case strings.Contains(endpoint, "://"):
		u, err := url.Parse(endpoint)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("tracing: OTLP endpoint %q: want http://HOST:PORT, https://HOST:PORT or HOST:PORT", endpoint)
		}
		opt = otlptracegrpc.WithEndpointURL(endpoint)
	default:
		opt = otlptracegrpc.WithEndpoint(endpoint)
	}
	opts := []otlptracegrpc.Option{opt}
	if !strings.Contains(endpoint, "://") {
		opts = append(opts, otlptracegrpc.WithInsecure())
	}
	exp, err := otlptracegrpc.New(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	attrs := []attribute.KeyValue{attribute.String("service.name", "orrery")}
	if node != "" {
		attrs = append(attrs, attribute.String("service.instance.id", node))
	}
	return sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp, sdktrace.WithBatchTimeout(2*time.Second)),
		sdktrace.WithResource(resource.NewSchemaless(attrs...)),
	), nil
}

// Tracer is the tracer of Orrery's own spans from tp; nil when tp is nil (tracing off).
func Tracer(tp trace.TracerProvider) trace.Tracer {
	if tp == nil {
		return nil
	}
	return tp.Tracer("github.com/orrery/orrery")
}
