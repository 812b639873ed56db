package service

import (
	"testing"

	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"

	icetradersv1 "github.com/orrery/orrery/proto/orrery/icetraders/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// The server decodes every request as the standard codec does: the same message, and the
// same refusal of a string that is not UTF-8, whichever decoder reads it.
func TestCodec_DecodesRequestsAsTheStandardCodec(t *testing.T) {
	bad := string([]byte{0xff, 0xfe})
	answer := func(a *orreryv1.Answer) *orreryv1.PlayRequest {
		return &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: a}}
	}
	cases := []struct {
		name string
		req  *orreryv1.PlayRequest
	}{
		{"index", answer(&orreryv1.Answer{DecisionId: "d3.1", MatchId: "m1", Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 4}})},
		{"notation", answer(&orreryv1.Answer{DecisionId: "d3.1", Choice: &orreryv1.Answer_Notation{Notation: "pick red small, blue large"}})},
		{"no choice", answer(&orreryv1.Answer{DecisionId: "d3.1"})},
		{"typed action", answer(&orreryv1.Answer{DecisionId: "d3.1", Choice: &orreryv1.Answer_Action{Action: &orreryv1.Action{
			Game: &orreryv1.Action_Icetraders{Icetraders: &icetradersv1.Action{Kind: &icetradersv1.Action_Decline{Decline: &icetradersv1.Decline{}}}}}}})},
		{"join", &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: "m1.secret", Receive: &orreryv1.Receive{Quiet: true}}}}},
		{"rejoin", &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: "m1.secret", EventsSeen: proto.Int64(0)}}}},
		{"ladder join", &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Ladder{Ladder: &orreryv1.LadderJoin{Games: []string{"icetraders"}}}}},
		{"bad decision id", answer(&orreryv1.Answer{DecisionId: bad, Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 1}})},
		{"bad match id", answer(&orreryv1.Answer{DecisionId: "d1.1", MatchId: bad})},
		{"bad notation", answer(&orreryv1.Answer{DecisionId: "d1.1", Choice: &orreryv1.Answer_Notation{Notation: bad}})},
		{"bad token", &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: bad}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := c.req.MarshalVT() // writes strings unchecked, as a client in another language may
			if err != nil {
				t.Fatal(err)
			}
			want := &orreryv1.PlayRequest{}
			wantErr := proto.Unmarshal(b, want)
			got := &orreryv1.PlayRequest{}
			gotErr := newCodec().Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, got)
			if (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("error %v, the standard codec's %v", gotErr, wantErr)
			}
			if wantErr == nil && !proto.Equal(got, want) {
				t.Errorf("decoded %v, the standard codec %v", got, want)
			}
		})
	}
}
