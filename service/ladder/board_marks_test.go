package ladder

import (
	"context"
	"testing"
	"time"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestLeaderboard_RevokedBotsAreMarked: a bot whose key is revoked keeps its rating on the
// leaderboard, marked revoked (and no longer connected), so a reader can tell it plays no more.
func TestLeaderboard_RevokedBotsAreMarked(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e := newEnv(t, nil, resumeConfig(), "")
	names := []string{"ann", "bob", "cid"}
	keys := map[string]string{}
	for _, n := range names {
		keys[n] = e.register(n)
	}
	playLadder(ctx, t, e, keys, names, 0)
	if _, err := e.ladder.RevokeBot(withKey(ctx, keys["bob"]), &orreryv1.RevokeBotRequest{}); err != nil {
		t.Fatal(err)
	}
	// The rater rates the played matches on its own goroutine: wait for the three ratings.
	var board *orreryv1.GetLeaderboardResponse
	eventually(t, "every bot rated", func() bool {
		var err error
		if board, err = e.ladder.GetLeaderboard(ctx, &orreryv1.GetLeaderboardRequest{Game: testGame}); err != nil {
			t.Fatal(err)
		}
		return len(board.GetEntries()) == len(names)
	})
	seen := 0
	for _, en := range board.GetEntries() {
		seen++
		if want := en.GetBot() == "bob"; en.GetRevoked() != want {
			t.Errorf("%s on the leaderboard: revoked %v, want %v", en.GetBot(), en.GetRevoked(), want)
		}
		if en.GetBot() == "bob" && en.GetConnected() {
			t.Error("the revoked bot is listed as connected")
		}
	}
	if seen != len(names) {
		t.Errorf("%d bots on the leaderboard, want %d", seen, len(names))
	}
}

// TestHouseBots_ConnectedWhilePlaying: a house bot has no stream of its own (the server plays
// it), so it is listed as connected while it plays a match, in ListBots and on the
// leaderboard alike.
func TestHouseBots_ConnectedWhilePlaying(t *testing.T) {
	e := newEnv(t, nil, quick(Config{HouseMatches: 1, House: randomHouse(4)}), "")
	ctx := context.Background()
	eventually(t, "a house bot listed as playing", func() bool {
		list, err := e.ladder.ListBots(ctx, &orreryv1.ListBotsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		playing := 0
		for _, b := range list.GetBots() {
			if len(b.GetLiveMatchIds()) > 0 {
				playing++
				if !b.GetConnected() {
					t.Fatalf("house bot %s plays %v but is listed as not connected", b.GetName(), b.GetLiveMatchIds())
				}
			}
		}
		return playing > 0
	})
}
