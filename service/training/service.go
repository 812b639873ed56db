package training

import (
	"errors"
	"io"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Service implements orreryv1.TrainingServiceServer. It holds no state between streams: a
// batch lives and dies with its stream.
type Service struct {
	orreryv1.UnimplementedTrainingServiceServer
	slots chan struct{} // one per stream that may run at once
}

var _ orreryv1.TrainingServiceServer = (*Service)(nil)

// Config bounds what trainers may make the server hold.
type Config struct {
	// Streams is how many Train streams may run at once (default 4); each holds up to
	// MaxEnvironments matches and keeps a core busy while it steps.
	Streams int
}

// New is the training service.
func New(c Config) *Service {
	if c.Streams <= 0 {
		c.Streams = 4
	}
	return &Service{slots: make(chan struct{}, c.Streams)}
}

// Register adds the service to g.
func (s *Service) Register(g *grpc.Server) { orreryv1.RegisterTrainingServiceServer(g, s) }

// Train opens a batch with the stream's first message and steps it with each later one.
func (s *Service) Train(stream orreryv1.TrainingService_TrainServer) error {
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	default:
		return status.Errorf(codes.ResourceExhausted, "%d training streams are running, the most this server takes: try again when one ends", cap(s.slots))
	}
	req, err := stream.Recv()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return err
	}
	open := req.GetOpen()
	if open == nil {
		return status.Error(codes.InvalidArgument, "the first message must open the environments")
	}
	b, err := Open(open)
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "open: %v", err)
	}
	resp := &orreryv1.TrainResponse{Kind: &orreryv1.TrainResponse_Spec{Spec: b.Spec()}}
	if err := stream.Send(resp); err != nil {
		return err
	}
	results := &orreryv1.TrainResponse_Results{}
	resp.Kind = results
	for {
		req, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		step := req.GetStep()
		if step == nil {
			return status.Error(codes.InvalidArgument, "after the first message, every message is a step")
		}
		if err := b.Step(step.GetActionIds()); err != nil {
			return stepStatus(err)
		}
		// Send marshals before it returns, so the next step may reuse the results' memory.
		results.Results = b.Results()
		if err := stream.Send(resp); err != nil {
			return err
		}
	}
}

// stepStatus is the one place a step's error becomes a code: an illegal action is allowed by
// no state the environment is in, a wrong length is malformed anywhere, the rest is ours.
func stepStatus(err error) error {
	switch {
	case errors.Is(err, ErrIllegal):
		return status.Errorf(codes.FailedPrecondition, "step: %v", err)
	case errors.Is(err, errMalformed):
		return status.Errorf(codes.InvalidArgument, "step: %v", err)
	}
	return status.Errorf(codes.Internal, "step: %v", err)
}
