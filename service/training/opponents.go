package training

import (
	"fmt"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/mcts"
)

// defaultIterations is the mcts opponents' budget when the trainer names none.
const defaultIterations = 200

// opponentNames are the built-in bots a trainer may play against.
var opponentNames = []string{"random", "greedy", "mcts"}

// newOpponent makes the built-in bot name for game, seeded. The mcts bot searches a fixed
// number of iterations, not a time budget, so that an episode replays exactly.
func newOpponent(game, name string, seed uint64, iterations int) (bots.Bot, error) {
	switch name {
	case "random", "greedy":
		return builtin.New(game, name, seed)
	case "mcts":
		if _, err := builtin.New(game, name, seed); err != nil {
			return nil, err
		}
		return mcts.MustNew(game, mcts.Config{Seed: seed, Iterations: iterations}), nil
	}
	return nil, fmt.Errorf("no opponent %q: want one of %v", name, opponentNames)
}

// botSeed is the seed of the bot at seat in the episode seeded with episode: a SplitMix64
// step, so that neighbouring episodes and seats draw unrelated streams.
func botSeed(episode uint64, seat int) uint64 {
	z := episode + 0x9e3779b97f4a7c15*uint64(seat+1)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
