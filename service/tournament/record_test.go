package tournament

import (
	"context"
	"slices"
	"sync"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestRecordTournament stores a tournament of real matches over gRPC; the server computes
// the standings from the stored results.
func TestRecordTournament(t *testing.T) {
	const admin = "adm"
	e := newEnv(t, nil, admin)
	ctx := withKey(context.Background(), admin)
	entrants := []string{"greedy#1", "greedy#2", "random"}
	var ids []string
	var outcomes []Outcome
	for _, l := range RoundRobin(3, 2, 6, false, 1) {
		names := []string{entrants[l.Entrants[0]], entrants[l.Entrants[1]]}
		seed := l.Seed
		created, err := e.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: testGame, Seats: 2, Seed: &seed, SeatNames: names})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		ends := make([]*orreryv1.MatchEnded, 2)
		for i, s := range created.GetSeats() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				end, err := sdk.Play(context.Background(), e.conn, s.GetToken(), random.New(uint64(i)), sdk.Options{})
				if err != nil {
					t.Error(err)
				}
				ends[i] = end
			}()
		}
		wg.Wait()
		ids = append(ids, created.GetMatchId())
		o := Outcome{Names: names}
		for _, r := range ends[0].GetResult().GetRanks() {
			o.Ranks = append(o.Ranks, int(r))
		}
		outcomes = append(outcomes, o)
	}
	req := &orreryv1.RecordTournamentRequest{Game: testGame, Format: orreryv1.TournamentFormat_TOURNAMENT_FORMAT_ROUND_ROBIN,
		Seats: 2, Entrants: entrants, MatchIds: ids}
	got, err := e.tours.RecordTournament(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	tour := got.GetTournament()
	if want := standingsProto(Standings(entrants, outcomes)); !slices.EqualFunc(tour.GetStandings(), want, func(a, b *orreryv1.TournamentStanding) bool { return proto.Equal(a, b) }) {
		t.Errorf("standings %v, want %v", tour.GetStandings(), want)
	}
	again, err := e.tours.GetTournament(context.Background(), &orreryv1.GetTournamentRequest{TournamentId: tour.GetTournamentId()})
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(again.GetTournament().GetStandings()[0], tour.GetStandings()[0]) || !slices.Equal(again.GetTournament().GetMatchIds(), ids) {
		t.Errorf("GetTournament: %v, recorded %v", again.GetTournament(), tour)
	}

	bad := []struct {
		name   string
		ctx    context.Context
		mutate func(*orreryv1.RecordTournamentRequest)
		want   codes.Code
	}{
		{"without the admin key", context.Background(), func(*orreryv1.RecordTournamentRequest) {}, codes.PermissionDenied},
		{"an unknown match", ctx, func(r *orreryv1.RecordTournamentRequest) { r.MatchIds = []string{"mNope"} }, codes.NotFound},
		{"a seat that is no entrant", ctx, func(r *orreryv1.RecordTournamentRequest) { r.Entrants = entrants[:2] }, codes.InvalidArgument},
		{"a wrong seat count", ctx, func(r *orreryv1.RecordTournamentRequest) { r.Seats = 3 }, codes.InvalidArgument},
		{"no format", ctx, func(r *orreryv1.RecordTournamentRequest) { r.Format = 0 }, codes.InvalidArgument},
		{"an entrant twice", ctx, func(r *orreryv1.RecordTournamentRequest) { r.Entrants = append(r.Entrants, "random") }, codes.InvalidArgument},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			r := proto.Clone(req).(*orreryv1.RecordTournamentRequest)
			tt.mutate(r)
			if _, err := e.tours.RecordTournament(tt.ctx, r); status.Code(err) != tt.want {
				t.Errorf("got %v, want %v", err, tt.want)
			}
		})
	}
	if _, err := e.tours.GetTournament(context.Background(), &orreryv1.GetTournamentRequest{TournamentId: "tNope"}); status.Code(err) != codes.NotFound {
		t.Errorf("unknown tournament: %v", err)
	}
}
