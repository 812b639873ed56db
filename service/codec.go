package service

import (
	"google.golang.org/grpc/mem"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// codec is the protocol's codec (wire.Codec: generated marshalling, standard decoding of
// what clients send), except that a decision's typed legal list is copied from bytes
// encoded once per action (wire.AppendDecisionResponse) rather than marshalled for every
// decision: the list is most of a decision's marshalling cost. The bytes on the wire are a
// valid encoding of the same message.
type codec struct{ wire.Codec }

func newCodec() codec { return codec{} }

func (c codec) Marshal(v any) (mem.BufferSlice, error) {
	if r, ok := v.(*orreryv1.PlayResponse); ok {
		if d := r.GetDecision(); d != nil && len(d.GetLegal()) > 0 {
			b, err := wire.AppendDecisionResponse(nil, d)
			if err != nil {
				return nil, err
			}
			return mem.BufferSlice{mem.SliceBuffer(b)}, nil
		}
	}
	return c.Codec.Marshal(v)
}
