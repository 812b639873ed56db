package tournament

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"slices"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// maxTournamentMatches bounds one RecordTournament request.
const maxTournamentMatches = 100000

// RecordTournament stores a finished tournament. The standings are computed here from the
// stored results of its matches, never taken from the caller.
func (s *Service) RecordTournament(ctx context.Context, req *orreryv1.RecordTournamentRequest) (*orreryv1.RecordTournamentResponse, error) {
	if err := s.needAdmin(ctx); err != nil {
		return nil, err
	}
	if s.arena == nil {
		return nil, errNotStarted
	}
	g, err := engine.Lookup(req.GetGame())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	info := g.Info()
	seats := int(req.GetSeats())
	switch {
	case req.GetFormat() == orreryv1.TournamentFormat_TOURNAMENT_FORMAT_UNSPECIFIED || orreryv1.TournamentFormat_name[int32(req.GetFormat())] == "":
		return nil, status.Errorf(codes.InvalidArgument, "format %v: want round robin or swiss", req.GetFormat())
	case seats < info.MinSeats || seats > info.MaxSeats:
		return nil, status.Errorf(codes.InvalidArgument, "seats %d: %s takes %d to %d", seats, info.Name, info.MinSeats, info.MaxSeats)
	case len(req.GetEntrants()) < 1:
		return nil, status.Error(codes.InvalidArgument, "no entrants")
	case len(req.GetMatchIds()) < 1 || len(req.GetMatchIds()) > maxTournamentMatches:
		return nil, status.Errorf(codes.InvalidArgument, "%d match ids: want 1 to %d", len(req.GetMatchIds()), maxTournamentMatches)
	}
	entrants := req.GetEntrants()
	for i, e := range entrants {
		if e == "" || slices.Contains(entrants[:i], e) {
			return nil, status.Errorf(codes.InvalidArgument, "entrant %q is empty or listed twice", e)
		}
	}
	outcomes := make([]Outcome, 0, len(req.GetMatchIds()))
	for _, id := range req.GetMatchIds() {
		got, err := s.arena.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
		if err != nil {
			return nil, err
		}
		m := got.GetMatch()
		if m.GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_FINISHED {
			return nil, status.Errorf(codes.FailedPrecondition, "match %s has not finished", id)
		}
		if m.GetGame() != info.Name || int(m.GetSeats()) != seats {
			return nil, status.Errorf(codes.InvalidArgument, "match %s is %s with %d seats, not %s with %d", id, m.GetGame(), m.GetSeats(), info.Name, seats)
		}
		o := Outcome{}
		for _, s := range m.GetSeatInfo() {
			if !slices.Contains(entrants, s.GetName()) {
				return nil, status.Errorf(codes.InvalidArgument, "match %s seats %q, who is not an entrant", id, s.GetName())
			}
			o.Names = append(o.Names, s.GetName())
		}
		for _, r := range m.GetResult().GetRanks() {
			o.Ranks = append(o.Ranks, int(r))
		}
		outcomes = append(outcomes, o)
	}
	t := &orreryv1.Tournament{
		TournamentId: newTournamentID(), Game: info.Name, Format: req.GetFormat(), Seats: int32(seats),
		Entrants: entrants, Duplicate: req.GetDuplicate(), Started: req.GetStarted(),
		Finished: timestamppb.New(s.now()), MatchIds: req.GetMatchIds(),
		Status: orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED, Recorded: true, MatchesTotal: int32(len(req.GetMatchIds())),
		MatchesEnded: int32(len(req.GetMatchIds())),
	}
	if t.Started == nil {
		t.Started = t.Finished
	}
	standings := Standings(entrants, outcomes)
	t.Standings = standingsProto(standings)
	if err := s.db.insertTournament(ctx, t, standings); err != nil {
		return nil, status.Errorf(codes.Internal, "record tournament: %v", err)
	}
	s.log.Info("tournament recorded", "tournament", t.TournamentId, "game", t.Game, "matches", len(t.MatchIds))
	return &orreryv1.RecordTournamentResponse{Tournament: t}, nil
}

func newTournamentID() string {
	var b [9]byte
	rand.Read(b[:])
	return "t" + base64.RawURLEncoding.EncodeToString(b[:])
}

func standingsProto(ss []Standing) []*orreryv1.TournamentStanding {
	out := make([]*orreryv1.TournamentStanding, len(ss))
	for i, s := range ss {
		out[i] = &orreryv1.TournamentStanding{
			Place: int32(s.Place), Entrant: s.Entrant, Matches: int32(s.Matches), Wins: int32(s.Wins),
			WinRate: s.WinRate, WinRateLow: s.WinLow, WinRateHigh: s.WinHigh,
			WinShare: s.Share, WinShareLow: s.ShareLow, WinShareHigh: s.ShareHigh,
			MeanRank: s.MeanRank, MeanRankCi: s.MeanRankCI, Points: s.Points,
		}
	}
	return out
}

func (d *db) insertTournament(ctx context.Context, t *orreryv1.Tournament, standings []Standing) error {
	tx, err := d.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO tournaments (id, game, format, seats, entrants, duplicate, started_ns, finished_ns, standings)
		VALUES (?,?,?,?,?,?,?,?,?)`, t.TournamentId, t.Game, int32(t.Format), t.Seats, store.JSON(t.Entrants), t.Duplicate,
		store.UnixNano(t.Started.AsTime()), store.UnixNano(t.Finished.AsTime()), store.JSON(standings)); err != nil {
		return err
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO tournament_matches (tournament_id, seq, match_id) VALUES (?,?,?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i, id := range t.MatchIds {
		if _, err := stmt.ExecContext(ctx, t.TournamentId, i, id); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func (d *db) tournament(ctx context.Context, id string) (*orreryv1.Tournament, error) {
	t := &orreryv1.Tournament{TournamentId: id}
	var format int32
	var entrants, standings string
	var started, finished int64
	if err := d.QueryRowContext(ctx, `SELECT game, format, seats, entrants, duplicate, started_ns, finished_ns, standings
		FROM tournaments WHERE id = ?`, id).Scan(&t.Game, &format, &t.Seats, &entrants, &t.Duplicate, &started, &finished, &standings); err != nil {
		return nil, err
	}
	t.Format = orreryv1.TournamentFormat(format)
	t.Status, t.Recorded = orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED, true
	t.Started, t.Finished = timestamppb.New(time.Unix(0, started)), timestamppb.New(time.Unix(0, finished))
	var ss []Standing
	if err := json.Unmarshal([]byte(entrants), &t.Entrants); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(standings), &ss); err != nil {
		return nil, err
	}
	t.Standings = standingsProto(ss)
	rows, err := d.QueryContext(ctx, `SELECT match_id FROM tournament_matches WHERE tournament_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return nil, err
		}
		t.MatchIds = append(t.MatchIds, m)
	}
	t.MatchesTotal, t.MatchesEnded = int32(len(t.MatchIds)), int32(len(t.MatchIds))
	return t, rows.Err()
}
