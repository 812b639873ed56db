package main

import (
	"context"
	"log/slog"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/orrery/orrery/service/tracing"
)

// startTracing starts sending traces to the OTLP collector that flag (or the environment's
// OTEL_EXPORTER_OTLP_ENDPOINT) names, if any: tp is nil when tracing is off. stop flushes
// the last spans.
func startTracing(ctx context.Context, flag, node string, logger *slog.Logger) (tp *sdktrace.TracerProvider, stop func(), err error) {
	ep := tracing.Endpoint(flag)
	if ep == "" {
		return nil, func() {}, nil
	}
	if tp, err = tracing.Setup(ctx, ep, node); err != nil {
		return nil, nil, usagef("--otlp-endpoint (or %s): %v", tracing.EnvEndpoint, err)
	}
	logger.Info("tracing on", "otlp", ep)
	return tp, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tp.Shutdown(ctx); err != nil {
			logger.Warn("tracing: flushing the last spans", "err", err)
		}
	}, nil
}
