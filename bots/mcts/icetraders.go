package mcts

import (
	"math"
	"math/rand/v2"

	"google.golang.org/protobuf/proto"

	icetradersbot "github.com/orrery/orrery/bots/icetraders"
	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/icetraders"
	icetradersv1 "github.com/orrery/orrery/proto/orrery/icetraders/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// icetradersGame is IceTraders' search: greedy's choice first, the other seats answering as
// greedy answers (icetradersReply), then a playout of one more round as greedy plays it, the
// seat's own next move included, and greedy's scoring of where that leaves the seat. An
// elimination is often two moves in the making (a hunter moved in, then its attack), which
// the round's end alone does not show: with the playout, 43% of 40 games at 1,500 iterations
// (139 ms of CPU a decision), against 39% without at 2,900 (121 ms); over 200 duplicate
// games against three greedy bots, a 48% win share at 1,100 iterations, against 37% without
// at 2,900. The seat's own next
// moves drawn untried in the tree would only blur it, so the tree keeps the root's move only.
// The root is widened to the best 16 by the evaluation one action ahead, since late in a
// match there are hundreds of actions and a few thousand iterations.
func icetradersGame() Game {
	return Game{
		Name:         icetraders.Name,
		Determinizer: icetradersDeterminizer,
		Prior:        icetradersbot.NewGreedy,
		Evaluate:     icetradersEvaluate(),
		Reply:        icetradersReply,
		Playout:      icetradersReply(),
		Depth:        4,
		TreeDepth:    1,
		Widen:        16,
	}
}

func icetradersDeterminizer(d *orreryv1.Decision) (Determinizer, error) {
	o, err := observation[*icetradersv1.Observation](d)
	if err != nil {
		return nil, err
	}
	return icetraders.NewDeterminizer(blindToOrder(o, int(d.GetSeat())), int(d.GetSeat()))
}

// blindToOrder is o, or while the alignments or the picks are chosen (at once, in secret) a
// copy that shows no other seat's choice as made: whether one is yet says only the order the
// answers reached the server in, and a seeded search that read it would choose differently
// from one run to the next, so a tournament would not replay from its seed. The others'
// choices are then made in the search, as those of the seats still to choose are.
func blindToOrder(o *icetradersv1.Observation, seat int) *icetradersv1.Observation {
	align := o.GetPhase() == icetradersv1.Phase_PHASE_ALIGNMENT
	picks := o.GetPhase() == icetradersv1.Phase_PHASE_OPENING_PICKS
	if !align && !picks {
		return o
	}
	o = proto.CloneOf(o) // the decision's is not the bot's to change
	for i, p := range o.GetPlayers() {
		if i == seat {
			continue
		}
		if align {
			p.AlignmentChosen = false
		}
		if picks {
			p.PicksChosen = false
		}
	}
	o.ToAct = nil
	return o
}

// icetradersEvaluate is the greedy bot's scoring of what the seat would see, squashed into
// [0, 1]; each call of Games makes one, with buffers of its own.
func icetradersEvaluate() func(st engine.State, seat engine.Seat) float64 {
	var e icetradersbot.StateEvaluator
	return func(st engine.State, seat engine.Seat) float64 {
		return 0.5 + 0.5*math.Tanh(e.Evaluate(st.(*icetraders.State), int(seat))/1000)
	}
}

// icetradersReply is how the other seats answer in the tree: as the greedy bot would from its
// own view of the sample, the opponent the search most often meets.
func icetradersReply() Policy {
	var p icetradersbot.Policy
	return func(st engine.State, seat engine.Seat, legal []engine.Action, r *rand.Rand) engine.Action {
		return p.Choose(st.(*icetraders.State), int(seat), legal, r)
	}
}
