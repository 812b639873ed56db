package main

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestServe_MovedTournamentCallsKeepTheirOldPath: GetTournament and RecordTournament moved
// from LadderService to TournamentService; a client built before the move still gets the
// same answers on the old path.
func TestServe_MovedTournamentCallsKeepTheirOldPath(t *testing.T) {
	a, err := startArena(arenaConfig{addr: "127.0.0.1:0", dbPath: filepath.Join(t.TempDir(), "o.db"), ladder: &ladderOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.stop()
	conn, err := a.dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := context.Background()
	old, tournaments := orreryv1.NewLadderServiceClient(conn), orreryv1.NewTournamentServiceClient(conn)
	// The same bad request gets the same refusal on both paths.
	bad := &orreryv1.RecordTournamentRequest{Game: "icetraders", Seats: 2, Entrants: []string{"a", "b"}}
	//lint:ignore SA1019 the old path is what this test calls
	_, errOld := old.RecordTournament(ctx, bad)
	_, errNew := tournaments.RecordTournament(ctx, bad)
	if errOld == nil || status.Convert(errOld).Message() != status.Convert(errNew).Message() || status.Code(errOld) != status.Code(errNew) {
		t.Errorf("RecordTournament: old path %v, TournamentService %v", errOld, errNew)
	}
	created, err := tournaments.CreateTournament(ctx, &orreryv1.CreateTournamentRequest{Game: "icetraders", Seats: 2,
		Entrants: []string{"random", "greedy"}, Games: 2})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTournament().GetTournamentId()
	//lint:ignore SA1019 the old path is what this test calls
	viaOld, err := old.GetTournament(ctx, &orreryv1.GetTournamentRequest{TournamentId: id})
	if err != nil {
		t.Fatalf("GetTournament on the old path: %v", err)
	}
	viaNew, err := tournaments.GetTournament(ctx, &orreryv1.GetTournamentRequest{TournamentId: id})
	if err != nil {
		t.Fatal(err)
	}
	// The tournament may move on between the two calls; its identity and settings may not.
	if viaOld.GetTournament().GetTournamentId() != id || viaOld.GetTournament().GetGame() != viaNew.GetTournament().GetGame() ||
		!slices.Equal(viaOld.GetTournament().GetEntrants(), viaNew.GetTournament().GetEntrants()) {
		t.Errorf("old path answers %v, TournamentService %v", viaOld, viaNew)
	}
	//lint:ignore SA1019 the old path is what this test calls
	if _, err := old.GetTournament(ctx, &orreryv1.GetTournamentRequest{TournamentId: "nope"}); status.Code(err) != codes.NotFound {
		t.Errorf("unknown tournament on the old path: %v, want NotFound", err)
	}
}
