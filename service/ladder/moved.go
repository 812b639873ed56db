package ladder

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TournamentCalls serves the tournament calls that moved from LadderService to
// TournamentService; the ladder answers their older paths through it.
type TournamentCalls interface {
	GetTournament(context.Context, *orreryv1.GetTournamentRequest) (*orreryv1.GetTournamentResponse, error)
	RecordTournament(context.Context, *orreryv1.RecordTournamentRequest) (*orreryv1.RecordTournamentResponse, error)
}

// ServeMovedCalls answers LadderService's deprecated GetTournament and RecordTournament with
// t. Call it before the ladder serves.
func (l *Ladder) ServeMovedCalls(t TournamentCalls) { l.moved = t }

// GetTournament is TournamentService.GetTournament under its first-release path.
func (l *Ladder) GetTournament(ctx context.Context, req *orreryv1.GetTournamentRequest) (*orreryv1.GetTournamentResponse, error) {
	if l.moved == nil {
		return nil, errMoved
	}
	return l.moved.GetTournament(ctx, req)
}

// RecordTournament is TournamentService.RecordTournament under its first-release path.
func (l *Ladder) RecordTournament(ctx context.Context, req *orreryv1.RecordTournamentRequest) (*orreryv1.RecordTournamentResponse, error) {
	if l.moved == nil {
		return nil, errMoved
	}
	return l.moved.RecordTournament(ctx, req)
}

var errMoved = status.Error(codes.Unimplemented, "tournament calls are served by orrery.v1.TournamentService, which this server does not run")
