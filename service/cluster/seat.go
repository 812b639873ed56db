package cluster

import (
	"context"
	"errors"
	"io"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// RemoteSeat relays a seat from the node that runs its match: a Play stream joined with the
// seat's token, whose messages go to the ladder stream as they come.
type RemoteSeat struct {
	stream grpc.BidiStreamingClient[orreryv1.PlayRequest, orreryv1.PlayResponse]
	cancel context.CancelFunc
	joined *orreryv1.Joined
	wg     sync.WaitGroup
}

// DialSeat joins the seat token names on the node cc reaches, receiving what receive asks.
func DialSeat(ctx context.Context, cc grpc.ClientConnInterface, token string, receive *orreryv1.Receive) (*RemoteSeat, error) {
	ctx, cancel := context.WithCancel(ctx)
	stream, err := orreryv1.NewArenaServiceClient(cc).Play(ctx)
	if err == nil {
		err = stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: token, Receive: receive}}})
	}
	var first *orreryv1.PlayResponse
	if err == nil {
		first, err = stream.Recv()
	}
	if err == nil && first.GetJoined() == nil {
		err = status.Errorf(codes.Internal, "the match's node answered a join with %T", first.GetMsg())
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return &RemoteSeat{stream: stream, cancel: cancel, joined: first.GetJoined()}, nil
}

func (r *RemoteSeat) Joined() *orreryv1.Joined { return r.joined }

// Run relays until the match ends (nil: its node closed the stream after MatchEnded), or
// the stream breaks (its node died: the caller joins again wherever the match goes on).
func (r *RemoteSeat) Run(ctx context.Context, answers <-chan *orreryv1.PlayRequest, send func(*orreryv1.PlayResponse) error) error {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		for {
			select {
			case <-ctx.Done():
				return
			case <-r.stream.Context().Done():
				return
			case req := <-answers:
				if r.stream.Send(req) != nil {
					return // Recv reports why
				}
			}
		}
	}()
	ended := false
	for {
		resp, err := r.stream.Recv()
		if errors.Is(err, io.EOF) {
			if ended {
				return nil
			}
			return status.Error(codes.Unavailable, "the match's node closed the seat's stream before the end")
		}
		if err != nil {
			return err
		}
		if resp.GetEnded() != nil {
			ended = true
		}
		if err := send(resp); err != nil {
			return err
		}
	}
}

func (r *RemoteSeat) Detach() {
	r.cancel()
	r.wg.Wait()
}
