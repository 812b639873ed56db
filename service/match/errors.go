package match

import (
	"errors"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// The ways a seat's loop ends, and what a match refuses; the service turns them into codes
// (service/errors.go).
var (
	// ErrReplaced: the seat joined on a newer connection, which replaces this one.
	ErrReplaced = errors.New("this seat joined on a newer stream; this one is closed")
	// ErrStreamClosed: the bot closed its side of the stream.
	ErrStreamClosed = errors.New("stream closed by the client")
	// ErrShuttingDown: the server is shutting down (Env.Done).
	ErrShuttingDown = errors.New("server is shutting down")
	// ErrGone: the match left this node (GoneError says which).
	ErrGone = errors.New("match moved off this node")
	// ErrRunning: a replay was asked of a match that is not over.
	ErrRunning = errors.New("the match is still running")
)

// GoneError is ErrGone for match ID.
type GoneError struct{ ID string }

func (e *GoneError) Error() string        { return "match " + e.ID + " moved off this node" }
func (e *GoneError) Is(target error) bool { return target == ErrGone }

// RejectCode classifies an engine's Apply error.
func RejectCode(err error) orreryv1.RejectCode {
	switch {
	case errors.Is(err, engine.ErrNotYourTurn), errors.Is(err, engine.ErrGameOver):
		return orreryv1.RejectCode_REJECT_CODE_NOT_YOUR_TURN
	case errors.Is(err, engine.ErrBadNotation):
		return orreryv1.RejectCode_REJECT_CODE_MALFORMED
	}
	return orreryv1.RejectCode_REJECT_CODE_ILLEGAL
}
