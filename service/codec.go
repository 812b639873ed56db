package service

import (
	"unicode/utf8"

	"google.golang.org/grpc/mem"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// codec is the protocol's codec (wire.Codec: generated marshalling, standard decoding of
// what clients send), except that a decision's typed legal list is copied from bytes
// encoded once per action (wire.MarshalDecisionResponse) rather than marshalled for every
// decision: the list is most of a decision's marshalling cost. The bytes on the wire are a
// valid encoding of the same message.
type codec struct{ wire.Codec }

func newCodec() codec { return codec{} }

func (c codec) Marshal(v any) (mem.BufferSlice, error) {
	if r, ok := v.(*orreryv1.PlayResponse); ok {
		if d := r.GetDecision(); d != nil && len(d.GetLegal()) > 0 {
			return wire.MarshalDecisionResponse(d)
		}
	}
	return c.Codec.Marshal(v)
}

// Unmarshal decodes what a client sends. An answer by index or by notation, the request of
// every decision, and a join, the first of every stream, are decoded by the generated code,
// and their strings checked for UTF-8 as proto.Unmarshal checks them; any other request, or
// one that fails, is decoded by the standard codec, which gives its own result or error.
func (c codec) Unmarshal(data mem.BufferSlice, v any) error {
	if req, ok := v.(*orreryv1.PlayRequest); ok {
		buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
		req.Reset()
		err := req.UnmarshalVT(buf.ReadOnlyData())
		buf.Free() // data keeps its own reference
		if err == nil && (plainAnswer(req.GetAnswer()) || plainJoin(req.GetJoin())) {
			return nil
		}
	}
	return c.Codec.Unmarshal(data, v)
}

// plainJoin reports whether j is a join whose one string, the token, is valid UTF-8: the
// generated decoder reads it exactly as proto.Unmarshal would (its other fields are numbers
// and flags).
func plainJoin(j *orreryv1.Join) bool {
	return j != nil && utf8.ValidString(j.GetToken())
}

// plainAnswer reports whether a is an answer by index or notation (or with no choice) whose
// strings are valid UTF-8: the generated decoder reads it exactly as proto.Unmarshal would.
// A typed action holds a game's messages, which the standard decoder checks.
func plainAnswer(a *orreryv1.Answer) bool {
	if a == nil || !utf8.ValidString(a.GetDecisionId()) || !utf8.ValidString(a.GetMatchId()) {
		return false
	}
	switch c := a.GetChoice().(type) {
	case nil, *orreryv1.Answer_LegalIndex:
		return true
	case *orreryv1.Answer_Notation:
		return utf8.ValidString(c.Notation)
	}
	return false
}
