package builtin_test

import (
	"testing"

	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/games"
	"github.com/orrery/orrery/proto/wire"
)

// TestNew_SearchBotForEveryGame: every registered game has an mcts bot, and its answer to an
// opening decision is one the game accepts.
func TestNew_SearchBotForEveryGame(t *testing.T) {
	for _, game := range engine.Names() {
		t.Run(game, func(t *testing.T) {
			g, _ := engine.Lookup(game)
			st, err := engine.New(game, engine.Config{Seats: g.Info().MinSeats, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			bot, err := builtin.New(game, "mcts", 1)
			if err != nil {
				t.Fatalf("%v (have %v)", err, builtin.Names(game))
			}
			seat := st.ToAct(nil)[0]
			legal := st.Legal(seat, nil)
			a, _, err := wire.Answer(st, legal, bot.Act(wire.Decision(st, seat, legal, 0)))
			if err == nil {
				err = st.Apply(seat, a)
			}
			if err != nil {
				t.Errorf("the answer is refused: %v", err)
			}
		})
	}
	if _, err := builtin.New("planet", "no-such-bot", 1); err == nil {
		t.Error("an unknown bot name was accepted")
	}
}

func TestIterations_ForEveryGameOrGameByGame(t *testing.T) {
	for _, c := range []struct {
		env, game string
		want      int
	}{
		{"", "planet", 0},
		{"800", "planet", 800},
		{" 800 ", "icetraders", 800},
		{"-5", "planet", 0},
		{"junk", "planet", 0},
		{"icetraders=900,planet=5600", "planet", 5600},
		{"icetraders=900, planet=5600", "icetraders", 900},
		{"icetraders=900,planet=5600", "fccatan", 0}, // not named: the time budget
		{"planet=x", "planet", 0},
	} {
		if got := builtin.Iterations(c.env, c.game); got != c.want {
			t.Errorf("Iterations(%q, %q) = %d; want %d", c.env, c.game, got, c.want)
		}
	}
}
