package wire

import (
	"google.golang.org/grpc/encoding"
	protocodec "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
)

// fastMessage is a message with generated marshalling that needs no reflection
// (protoc-gen-go-vtproto, buf.gen.yaml): every message of this module.
type fastMessage interface {
	SizeVT() int
	MarshalToSizedBufferVT([]byte) (int, error)
	UnmarshalVT([]byte) error
}

// standard is gRPC's own protobuf codec, for the messages of other modules.
var standard = encoding.GetCodecV2(protocodec.Name)

// Codec is gRPC's protobuf codec ("proto") encoding with the generated SizeVT and
// MarshalToSizedBufferVT, the same bytes as proto.Marshal at a fraction of its cost: a
// decision's observation is marshalled for every decision.
type Codec struct {
	// Trusted decodes with UnmarshalVT too. It does not check that string fields are UTF-8,
	// as proto.Unmarshal does, so it is for a client reading its server's messages; a server
	// decodes what anyone sends with the standard codec.
	Trusted bool
}

// Name is the codec's content subtype: it replaces the standard "proto" codec on the wire.
func (Codec) Name() string { return protocodec.Name }

// Marshal encodes v, into a pooled buffer when it is large, as the standard codec does.
func (Codec) Marshal(v any) (mem.BufferSlice, error) {
	m, ok := v.(fastMessage)
	if !ok {
		return standard.Marshal(v)
	}
	size := m.SizeVT()
	if mem.IsBelowBufferPoolingThreshold(size) {
		buf := make([]byte, size)
		if _, err := m.MarshalToSizedBufferVT(buf); err != nil {
			return nil, err
		}
		return Slice(buf), nil
	}
	pool := mem.DefaultBufferPool()
	buf := pool.Get(size)
	if _, err := m.MarshalToSizedBufferVT((*buf)[:size]); err != nil {
		pool.Put(buf)
		return nil, err
	}
	return mem.BufferSlice{mem.NewBuffer(buf, pool)}, nil
}

// oneBuffer is a message's bytes as gRPC takes them, a list of one buffer, in one block with
// the list: mem.BufferSlice{mem.SliceBuffer(b)} allocated the list and the boxed slice apart,
// two allocations besides the bytes for every message sent.
type oneBuffer struct {
	data mem.SliceBuffer
	list [1]mem.Buffer
}

// Slice is b as a BufferSlice that gRPC neither pools nor frees.
func Slice(b []byte) mem.BufferSlice {
	o := &oneBuffer{data: b}
	o.list[0] = &o.data
	return o.list[:]
}

// Unmarshal decodes data into v: with UnmarshalVT when Trusted, which copies every string
// and byte field out of data, so the buffer is freed at once.
func (c Codec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(fastMessage)
	if !ok || !c.Trusted {
		return standard.Unmarshal(data, v)
	}
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	proto.Reset(v.(proto.Message)) // UnmarshalVT merges; proto.Unmarshal replaces
	return m.UnmarshalVT(buf.ReadOnlyData())
}

var _ encoding.CodecV2 = Codec{}
