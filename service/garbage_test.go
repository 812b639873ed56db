package service

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/limits"
)

// Garbage answers had no per-stream rate limit: 200 garbage seats at 10k messages a second
// slowed an unrelated match to 0.10x. Now a stream past its budget of rejected answers is
// closed with a status that says so, and its seat is kept: a rejoin at once is held until the
// budget has refilled, and the bot plays on.
func TestPlay_RejectedAnswersPerStreamAreRateLimited(t *testing.T) {
	h := newHarness(t, Config{Limits: limits.Config{RejectsPerSecond: 20, RejectBurst: 5}})
	ctx := context.Background()
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(4)})
	seat, stream, d := seatToAct(t, h, ctx, created)
	garbage := &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{DecisionId: "nope", Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}}}}
	for range 100 {
		if stream.Send(garbage) != nil {
			break // closed: Recv says why
		}
	}
	var err error
	rejected := 0
	for err == nil {
		var resp *orreryv1.PlayResponse
		if resp, err = stream.Recv(); err == nil && resp.GetRejected() != nil {
			rejected++
		}
	}
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "rejected answers per stream") || !strings.Contains(err.Error(), "seat is kept") {
		t.Fatalf("after %d rejections the stream ended with %v; want ResourceExhausted naming the limit", rejected, err)
	}
	if rejected > 6 {
		t.Errorf("%d rejections sent past a burst of 5", rejected)
	}
	// Rejoining at once is held until the budget is whole (a quarter of a second here).
	again := h.join(ctx, created.GetSeats()[seat].GetToken())
	next, _ := nextDecision(t, again)
	if next.GetDecisionId() != d.GetDecisionId() {
		t.Errorf("the seat rejoined to decision %s, want the one it owed, %s", next.GetDecisionId(), d.GetDecisionId())
	}
	if resp := answer(t, again, bots0(next)); resp.GetAccepted() == nil {
		t.Errorf("the kept seat's answer: %v", resp)
	}
}

// A rejection quoted decision_id, the notation or match_id in full: a 3 MB field gave a
// 15.7 MB reply. Now what a reply quotes from the client is cut short.
func TestPlay_RejectionsQuoteTheClientCutShort(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(5)})
	_, stream, d := seatToAct(t, h, ctx, created)
	huge := strings.Repeat("x", 3<<20)
	for _, ans := range []*orreryv1.Answer{
		{DecisionId: huge, Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}},
		{DecisionId: "d", MatchId: huge, Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}},
		{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_Notation{Notation: huge}},
	} {
		resp := answer(t, stream, ans)
		rej := resp.GetRejected()
		if rej == nil {
			t.Fatalf("not rejected: %v", resp)
		}
		if n := len(rej.GetDecisionId()) + len(rej.GetReason()) + len(rej.GetMatchId()); n > 1024 {
			t.Errorf("a rejection of %d bytes quoting a 3 MB field", n)
		}
	}
	if _, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: huge}); status.Code(err) != codes.NotFound || len(err.Error()) > 256 {
		t.Errorf("GetMatch of a 3 MB id: %d bytes of error", len(err.Error()))
	}
}
