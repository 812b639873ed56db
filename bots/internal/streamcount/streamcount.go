// Package streamcount counts what a client's Play streams receive, for the tests of what the
// Go clients ask the server to send.
package streamcount

import (
	"context"
	"sync/atomic"

	"google.golang.org/grpc"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Counts are the acceptances and decisions received on every stream of a connection dialled
// with its DialOption.
type Counts struct {
	Accepted, Decisions atomic.Int32
}

// DialOption counts into c what the connection's streams receive.
func (c *Counts) DialOption() grpc.DialOption {
	return grpc.WithStreamInterceptor(func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		cs, err := streamer(ctx, desc, cc, method, opts...)
		return counting{cs, c}, err
	})
}

// counting is a client stream that counts into its Counts.
type counting struct {
	grpc.ClientStream
	c *Counts
}

func (s counting) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if r, ok := m.(*orreryv1.PlayResponse); ok && err == nil {
		switch r.GetMsg().(type) {
		case *orreryv1.PlayResponse_Accepted:
			s.c.Accepted.Add(1)
		case *orreryv1.PlayResponse_Decision:
			s.c.Decisions.Add(1)
		}
	}
	return err
}
