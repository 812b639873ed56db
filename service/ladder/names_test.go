package ladder

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/store"
)

// Names that cannot be impersonated: a client creating a match may not seat anyone under a
// registered or house bot's name, in any letter case; other names are free.
func TestNames_RegisteredAndHouseNamesAreReserved(t *testing.T) {
	e := newEnv(t, nil, quick(Config{}), "")
	e.register("alpha")
	tests := []struct {
		name string
		want codes.Code
	}{
		{"alpha", codes.PermissionDenied},
		{"ALPHA", codes.PermissionDenied},
		{" alpha ", codes.PermissionDenied},
		{"house-random", codes.PermissionDenied},
		{"alpha2", codes.OK},
	}
	for _, tt := range tests {
		_, err := e.client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: testGame, Seats: 2, SeatNames: []string{"", tt.name}})
		if status.Code(err) != tt.want {
			t.Errorf("seat name %q: got %v, want %v", tt.name, err, tt.want)
		}
	}
}

// The reproduction: look-alike house names (U+2010 for the hyphen, a Cyrillic "о")
// were accepted. Now a name is reserved if it looks like a reserved one.
func TestNames_LookAlikesOfReservedNamesAreReserved(t *testing.T) {
	e := newEnv(t, nil, quick(Config{}), "")
	e.register("alpha")
	for _, name := range []string{"house‐random", "hоuse-random", "house−random", "ｈｏｕｓｅ－ｒａｎｄｏｍ", "alphа", "ALPHA\u200b", "h0use-random"} {
		_, err := e.client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: testGame, Seats: 2, SeatNames: []string{"", name}})
		if status.Code(err) != codes.PermissionDenied {
			t.Errorf("seat name %q: got %v, want PermissionDenied", name, err)
		}
	}
}

// A ladder match whose seats are not recorded (started by a version that did not record
// them) cannot be resumed on anyone's stream after a restart: rather than linger to be played
// out by the clock, it ends aborted at once, and is not rated.
func TestRestart_LadderMatchWithoutRecordedSeatsEndsAbortedUnrated(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	first := newEnv(t, db, quick(Config{HouseMatches: 1, HousePace: time.Hour}), "")
	var id string
	for id == "" {
		list, err := first.client.ListMatches(ctx, &orreryv1.ListMatchesRequest{Status: orreryv1.MatchStatus_MATCH_STATUS_RUNNING})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.GetMatches()) > 0 {
			id = list.GetMatches()[0].GetMatchId()
		}
		time.Sleep(time.Millisecond)
	}
	first.lad.Close()
	first.arena.Close()
	if _, err := db.SQL().Exec(`DELETE FROM ladder_seats`); err != nil {
		t.Fatal(err)
	}

	second := newEnv(t, db, quick(Config{}), "")
	sum, err := second.arena.AwaitEnd(ctx, id)
	if err != nil || sum.GetResult().GetReason() != orreryv1.EndReason_END_REASON_ABORTED {
		t.Errorf("orphaned match after the restart: %v, %v", sum.GetResult(), err)
	}
	second.lad.Close()
	var changes int
	if err := db.SQL().QueryRow(`SELECT COUNT(*) FROM ladder_rating_changes`).Scan(&changes); err != nil {
		t.Fatal(err)
	}
	if changes != 0 {
		t.Errorf("%d rating changes from an aborted match", changes)
	}
}

// ListMatches by bot lists the matches the ladder seated the bot in, by its identity: a
// match whose seat merely has the bot's name (stored before the name was reserved) is not
// listed.
func TestNames_ListMatchesByBotIsByIdentity(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil, quick(Config{HouseMatches: 1, HousePace: time.Hour}), "")
	impostor, _, _, err := e.arena.Create(ctx, service.MatchSpec{Game: testGame, Seats: 2, Names: []string{"house-random", ""}})
	if err != nil {
		t.Fatal(err)
	}
	var played []*orreryv1.MatchSummary
	eventually(t, "a house match", func() bool {
		list, err := e.client.ListMatches(ctx, &orreryv1.ListMatchesRequest{Bot: "house-random"})
		if err != nil {
			t.Fatal(err)
		}
		played = list.GetMatches()
		return len(played) > 0
	})
	for _, m := range played {
		if m.GetMatchId() == impostor {
			t.Errorf("ListMatches(bot house-random) lists the match whose seat only took the name")
		}
	}
	named, err := e.client.ListMatches(ctx, &orreryv1.ListMatchesRequest{SeatName: "house-random"})
	if err != nil || len(named.GetMatches()) != len(played)+1 {
		t.Errorf("ListMatches(seat_name house-random) = %d matches, %v; want the %d played and the impostor", len(named.GetMatches()), err, len(played))
	}
}
