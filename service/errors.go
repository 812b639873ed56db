package service

import (
	"errors"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/match"
	"github.com/orrery/orrery/service/store"
)

// Errors become gRPC codes here, once, at the boundary. InvalidArgument is a request
// malformed in any state; FailedPrecondition a request illegal in this state.
var (
	errNoJoin       = status.Error(codes.InvalidArgument, "the first message on a Play stream must be a join with a seat token")
	errEmptyToken   = status.Error(codes.InvalidArgument, "join: token is empty")
	errBadToken     = status.Error(codes.Unauthenticated, "join: unknown seat token")
	errReplaced     = status.Error(codes.Aborted, "this seat joined on a newer stream; this one is closed")
	errShuttingDown = status.Error(codes.Unavailable, "server is shutting down; rejoin with the same token")
	// errHalfClosed ends a Play stream whose bot closed its side (grpcurl at the end of its
	// input, say) before the match ended, once every reply was sent: the seat is kept.
	errHalfClosed    = status.Error(codes.Canceled, "you closed your side of the stream before the match ended; rejoin with the token to play on")
	errReplayRunning = status.Error(codes.FailedPrecondition, "the match is still running: its replay (and seed) is available once it ends")
)

// errGone is a match this node gave up (it lost its lease, or is shutting down): another
// node takes it over from its log, and any node relays the seat's rejoin there.
func errGone(id string) error {
	return status.Errorf(codes.Unavailable, "match %q moved off this node; rejoin with the same token through any node", id)
}

// matchFailed is a match the server could not resume: it will not go on.
func matchFailed(id string) error {
	return status.Errorf(codes.FailedPrecondition, "match %q failed: %s", engine.Clip(id, limits.DefaultEchoBytes), failedDetail)
}

// matchNotFound quotes the id a client asked for, cut short (a match id of megabytes would
// otherwise come back whole).
func matchNotFound(id string) error {
	return status.Errorf(codes.NotFound, "no match %q", engine.Clip(id, limits.DefaultEchoBytes))
}

// maxEchoed bounds the client text an error quotes back.
const maxEchoed = 512

// toStatus maps an internal error to a status error; nil stays nil.
func toStatus(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	if st := matchStatus(err); st != nil {
		return st
	}
	switch {
	case errors.Is(err, engine.ErrBadOption):
		// Engines quote the option they refuse; a client's huge value is not sent back whole.
		return status.Error(codes.InvalidArgument, engine.Clip(err.Error(), maxEchoed))
	case errors.Is(err, store.ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	}
	return status.Error(codes.Internal, err.Error())
}

// recvStatus reports a failed Recv: bytes that do not decode are the client's fault
// (InvalidArgument), which grpc-go reports as Internal.
func recvStatus(err error) error {
	if st, ok := status.FromError(err); ok && st.Code() == codes.Internal && strings.Contains(st.Message(), "unmarshal") {
		return status.Error(codes.InvalidArgument, "malformed message: "+st.Message())
	}
	return err
}

// matchStatus is the status of a match's sentinel error, or nil for any other.
func matchStatus(err error) error {
	var gone *match.GoneError
	switch {
	case errors.As(err, &gone):
		return errGone(gone.ID)
	case errors.Is(err, match.ErrReplaced):
		return errReplaced
	case errors.Is(err, match.ErrStreamClosed):
		return errHalfClosed
	case errors.Is(err, match.ErrShuttingDown):
		return errShuttingDown
	case errors.Is(err, match.ErrRunning):
		return errReplayRunning
	}
	return nil
}

// streamStatus is how a Play stream ends: a match's sentinel as its status, anything else
// (the transport's own errors, statuses already) as it came.
func streamStatus(err error) error {
	if st := matchStatus(err); st != nil {
		return st
	}
	return err
}
