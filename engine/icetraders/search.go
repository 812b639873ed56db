package icetraders

import (
	"math"
	"math/rand/v2"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// Determinizer draws full states consistent with one seat's observation, for search bots:
// the other seats' unrevealed alignments are drawn, Evil three times in four (EvilOdds), their unrevealed opening
// picks drawn among the pieces, and chance to come reseeded. It reads the observation once.
type Determinizer struct {
	base   *State
	align  []int // seats whose chosen alignment the viewer cannot see
	picked []int // seats whose chosen opening picks the viewer cannot see
}

var _ engine.Evaluator = (*State)(nil)

// NewDeterminizer reads o, the observation of seat.
func NewDeterminizer(o *pb.Observation, seat int) (*Determinizer, error) {
	base, err := FromObservation(o, nil)
	if err != nil {
		return nil, err
	}
	d := &Determinizer{base: base}
	for i, pp := range o.GetPlayers() {
		if i == seat {
			continue
		}
		if pp.GetAlignment() == pb.Alignment(Unknown) && pp.GetAlignmentChosen() {
			d.align = append(d.align, i)
		}
		if pp.GetPicksChosen() && !base.players[i].picks[0].valid() {
			d.picked = append(d.picked, i)
		}
	}
	return d, nil
}

// EvilOdds is how likely the Determinizer draws an unrevealed chosen alignment Evil. Evil wins
// alone by any elimination while Good must share its win and may not eliminate a Good player
// [rule: Elimination and winning], so a player out to win is likelier Evil than not; a search
// that drew Good and Evil alike took a rival's elimination of another player for a setback
// half the time when it most often ends the match.
const EvilOdds = 0.75

// Sample writes a draw into dst (nil, or an earlier sample) and returns it.
func (d *Determinizer) Sample(dst engine.State, r *rand.Rand) engine.State {
	s := d.base.CloneInto(dst).(*State)
	for _, i := range d.align {
		s.players[i].align = Good
		if r.Float64() < EvilOdds {
			s.players[i].align = Evil
		}
	}
	for _, i := range d.picked {
		p := &s.players[i]
		p.picks = [2]Piece{pieceOfKind(r.IntN(numKinds)), pieceOfKind(r.IntN(numKinds))}
		p.revealed = p.picks
	}
	s.rng.Seed(r.Uint64(), r.Uint64())
	return s
}

// Evaluate scores seat's standing for a search that stops before the end: the win itself,
// then its fleet against the strongest rival's, its large ships (whose loss eliminates it)
// counting double.
func (s *State) Evaluate(seat engine.Seat) float64 {
	if s.phase == phaseOver {
		if s.winners&(1<<seat) != 0 {
			return 1
		}
		return 0
	}
	if int(seat) >= len(s.players) || s.players[seat].out {
		return 0
	}
	var fleet [6]float64
	for i := range s.ships {
		x := &s.ships[i]
		if x.owner < 0 {
			continue
		}
		v := 1 + float64(x.piece.Size)
		if x.piece.Size == Large {
			v += 2
		}
		fleet[x.owner] += v
	}
	rival := 0.0
	for i := range s.players {
		if engine.Seat(i) != seat && !s.players[i].out {
			rival = max(rival, fleet[i])
		}
	}
	return 0.5 + 0.4*math.Tanh((fleet[seat]-rival)/8)
}

// Capped reports whether the match ended at the turn or pass cap (a draw nobody wins), as
// Result's EndCap says, without building a Result: a search asks at every playout's end.
func (s *State) Capped() bool {
	return s.end == pb.EndKind_END_KIND_TURN_CAP || s.end == pb.EndKind_END_KIND_PASS_CAP
}
