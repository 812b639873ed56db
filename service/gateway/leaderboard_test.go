package gateway

import (
	"context"
	"net/http"
	"testing"
	"time"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestAPI_LeaderboardGivesEachRatingWithItsDoubt: over HTTP as over gRPC, a leaderboard entry
// carries mu, sigma, the score mu - 3 sigma, whether the rating is still provisional, games
// and wins.
func TestAPI_LeaderboardGivesEachRatingWithItsDoubt(t *testing.T) {
	a := newArena(t, arenaOptions{houseMatches: 2, houseGames: []string{"planet"}})
	var board struct {
		Entries []map[string]any `json:"entries"`
	}
	deadline := time.Now().Add(time.Minute)
	for {
		if code := getJSON(t, a, "/v1/leaderboard?game=planet", &board); code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		if len(board.Entries) > 0 && board.Entries[0]["games"].(float64) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no rated planet match within a minute")
		}
		time.Sleep(100 * time.Millisecond)
	}
	grpcBoard, err := orreryv1.NewLadderServiceClient(a.conn).GetLeaderboard(context.Background(), &orreryv1.GetLeaderboardRequest{Game: "planet"})
	if err != nil {
		t.Fatal(err)
	}
	byBot := map[string]*orreryv1.LeaderboardEntry{}
	for _, e := range grpcBoard.GetEntries() {
		byBot[e.GetBot()] = e
	}
	for _, e := range board.Entries {
		for _, k := range []string{"mu", "sigma", "score", "provisional", "games", "wins"} {
			if _, ok := e[k]; !ok {
				t.Errorf("entry %v has no %q", e, k)
			}
		}
		mu, sigma, score := e["mu"].(float64), e["sigma"].(float64), e["score"].(float64)
		if d := score - (mu - 3*sigma); d > 1e-9 || d < -1e-9 {
			t.Errorf("%v: score is not mu - 3 sigma", e)
		}
		if e["provisional"] != (sigma > 6) {
			t.Errorf("%v: provisional %v with sigma %g", e, e["provisional"], sigma)
		}
		g := byBot[e["bot"].(string)]
		if g == nil || g.GetProvisional() != e["provisional"] || float64(g.GetGames()) < e["games"].(float64) {
			t.Errorf("over HTTP %v, over gRPC %v", e, g)
		}
	}
}
