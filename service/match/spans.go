package match

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/tracing"
)

// With a tracer (Env.Tracer), a match is a span from its start to its end, a child of the
// span that created it (Spec.Trace), and each decision a span within it from its issue to
// its answer, timeout or withdrawal: one trace holds the create call and every decision of
// the match. The spans name the match, the game, the seat, the ply and the decision id, and
// how each decision ended; never an action, a token or the seed. Without a tracer nothing is
// built: one nil check a decision.

// startSpanLocked starts the match's span.
func (m *Match) startSpanLocked(parent trace.SpanContext, resumed bool) {
	if m.env.Tracer == nil {
		return
	}
	ctx := trace.ContextWithSpanContext(context.Background(), parent)
	_, m.span = m.env.Tracer.Start(ctx, "orrery.match", trace.WithAttributes(
		tracing.MatchID.String(m.id), tracing.Game.String(m.game), tracing.Seats.Int(len(m.seats)),
		attribute.Bool("orrery.resumed", resumed), tracing.Ply.Int(len(m.steps))))
}

// endSpanLocked ends the match's span: how it ended, or that it left this node.
func (m *Match) endSpanLocked(reason engine.EndReason, handOff bool) {
	if m.span == nil {
		return
	}
	if handOff {
		m.span.SetAttributes(tracing.Reason.String("handed_off"))
	} else {
		m.span.SetAttributes(tracing.Reason.String(reason.String()))
	}
	m.span.SetAttributes(tracing.Ply.Int(len(m.steps)))
	m.span.End()
	m.span = nil
}

// decisionSpanLocked starts the span of decision p, issued to seat.
func (m *Match) decisionSpanLocked(p *pending, seat engine.Seat) {
	if m.span == nil {
		return
	}
	ctx := trace.ContextWithSpan(context.Background(), m.span)
	_, p.span = m.env.Tracer.Start(ctx, "orrery.decision", trace.WithAttributes(
		tracing.MatchID.String(m.id), tracing.Seat.Int(int(seat)), tracing.Ply.Int(len(m.steps)),
		tracing.DecisionID.String(p.id)))
}

// endDecisionSpan ends p's span with how the decision ended.
func endDecisionSpan(p *pending, outcome string) {
	if p == nil || p.span == nil {
		return
	}
	p.span.SetAttributes(tracing.Outcome.String(outcome))
	p.span.End()
	p.span = nil
}

// answeredOutcome is a decision's outcome once an action was applied for it.
func answeredOutcome(timedOut orreryv1.TimeoutPolicy) string {
	if timedOut != orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED {
		return "timed_out"
	}
	return "answered"
}
