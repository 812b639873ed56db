package match

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// FuzzPlayRequest feeds arbitrary bytes to a seat as Play requests after its join: whatever
// decodes is handled like a bot's message. The match must never panic, must answer every
// request (a resignation by the end it causes), and must change the match only by applying a legal action.
func FuzzPlayRequest(f *testing.F) {
	for _, m := range []*orreryv1.PlayRequest{
		{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{DecisionId: "d1", Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}}}},
		{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{DecisionId: "d1", Choice: &orreryv1.Answer_Notation{Notation: "align evil"}}}},
		{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{DecisionId: "d2", Choice: &orreryv1.Answer_Action{Action: &orreryv1.Action{}}}}},
		{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: "x"}}},
		{},
	} {
		b, _ := proto.Marshal(m)
		f.Add(b)
	}
	f.Add([]byte{0x12, 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		var req orreryv1.PlayRequest
		if proto.Unmarshal(data, &req) != nil {
			return // grpc-go rejects undecodable bytes before the handler sees them
		}
		m := newTestMatch(t, testGame, 2, 1)
		seat := m.Connect(0, nil)
		defer seat.Detach()
		m.mu.Lock()
		before, _ := m.st.MarshalBinary()
		plies := len(m.steps)
		m.mu.Unlock()
		if err := seat.Answer(&req); err != nil {
			t.Fatal(err)
		}
		m.mu.Lock()
		replies := seat.takeRepliesLocked()
		ended := m.ended
		m.mu.Unlock()
		if len(replies) == 0 && req.GetResign() != nil && ended {
			return // a resignation is answered by the match's end, sent to every seat
		}
		if len(replies) != 1 {
			t.Fatalf("%d replies to one request", len(replies))
		}
		m.mu.Lock()
		after, _ := m.st.MarshalBinary()
		applied := len(m.steps) - plies
		m.mu.Unlock()
		switch {
		case replies[0].GetAccepted() != nil && applied != 1:
			t.Errorf("accepted, but %d actions applied", applied)
		case replies[0].GetRejected() != nil && (applied != 0 || !bytes.Equal(before, after)):
			t.Errorf("rejected, but the match changed")
		case replies[0].GetRejected() != nil && replies[0].GetRejected().GetReason() == "":
			t.Errorf("rejected without a reason")
		}
	})
}
