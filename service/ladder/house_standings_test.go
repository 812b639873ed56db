package ladder

import (
	"context"
	"testing"

	"github.com/orrery/orrery/bots/builtin"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestHouseStandings_SearchAndGreedyAboveRandom: the built-in bots as house identities (as
// `orrery serve` seats them: greedy, mcts, random and a second greedy) play IceTraders on the
// ladder alone, the search at a small iteration budget; once each has thirty rated matches
// random stands last, by rating and by the board's conservative score.
func TestHouseStandings_SearchAndGreedyAboveRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("thirty IceTraders matches a bot: seconds of CPU, minutes under -race")
	}
	t.Setenv(builtin.IterationsEnv, "40")
	var house []House
	for _, id := range []struct{ bot, name string }{
		{"house-greedy", "greedy"}, {"house-mcts", "mcts"}, {"house-random", "random"}, {"house-greedy-2", "greedy"},
	} {
		house = append(house, House{Bot: id.bot, Game: testGame, New: func(seed uint64) Player {
			b, err := builtin.New(testGame, id.name, seed)
			if err != nil {
				panic(err)
			}
			return b
		}})
	}
	e := newEnv(t, nil, quick(Config{HouseMatches: 1, House: house}), "")
	ctx := context.Background()
	const rated = 30
	var board *orreryv1.GetLeaderboardResponse
	progressing(t, "thirty rated matches each", func() (bool, int) {
		var err error
		if board, err = e.ladder.GetLeaderboard(ctx, &orreryv1.GetLeaderboardRequest{Game: testGame}); err != nil {
			t.Fatal(err)
		}
		games, all := 0, len(board.GetEntries()) == len(house)
		for _, en := range board.GetEntries() {
			games += int(en.GetGames())
			all = all && en.GetGames() >= rated
		}
		return all, games
	})
	mu := map[string]float64{}
	for _, en := range board.GetEntries() {
		mu[en.GetBot()] = en.GetMu()
		t.Logf("%d. %s mu %.2f sigma %.2f, %d wins in %d", en.GetRank(), en.GetBot(), en.GetMu(), en.GetSigma(), en.GetWins(), en.GetGames())
	}
	if last := board.GetEntries()[len(house)-1].GetBot(); last != "house-random" {
		t.Errorf("%s stands last, want house-random", last)
	}
	for _, bot := range []string{"house-mcts", "house-greedy", "house-greedy-2"} {
		if mu[bot] <= mu["house-random"] {
			t.Errorf("%s rated %.2f, not above house-random's %.2f", bot, mu[bot], mu["house-random"])
		}
	}
}
