package training

import (
	"fmt"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// env is one environment: one episode (a match) after another of one configuration, in which
// the trainer plays its seats and opponents the others.
type env struct {
	b    *Batch // the configuration shared by every env of the batch
	seed uint64 // the running episode's
	st   engine.State
	bots []bots.Bot // by seat; nil for the trainer's seats
	recv []*orreryv1.Receive

	// The decision the trainer owes: the seat, its view and legal list, and their ids.
	seat  engine.Seat
	obs   proto.Message
	legal []engine.Action
	ids   []int32
	steps int // trainer steps in this episode
	ply   int64

	toAct []engine.Seat
	parts wire.DecisionParts
}

// outcome is how a step left an episode.
type outcome struct {
	terminated, truncated bool
	steps                 int
	rewards               []float32 // by seat, set when the episode ended by the rules
}

// start begins the episode seeded with seed and plays the opponents up to the trainer's first
// decision.
func (e *env) start(seed uint64) error {
	b := e.b
	st, err := engine.New(b.game, engine.Config{Seats: b.seats, Seed: seed, Options: b.options})
	if err != nil {
		return err
	}
	e.seed, e.st, e.steps, e.ply = seed, st, 0, 0
	e.bots = slices.Grow(e.bots[:0], b.seats)[:b.seats]
	e.recv = slices.Grow(e.recv[:0], b.seats)[:b.seats]
	for seat := range b.seats {
		e.bots[seat], e.recv[seat] = nil, nil
		if b.controlled[seat] {
			continue
		}
		bot, err := newOpponent(b.game, b.opponents[seat], botSeed(seed, seat), b.iterations)
		if err != nil {
			return err
		}
		e.bots[seat] = bot
		if r, ok := bot.(bots.Receiver); ok {
			e.recv[seat] = r.Receive()
		}
	}
	return e.advance()
}

// advance plays the opponents until the trainer owes a decision or the episode ends.
func (e *env) advance() error {
	for !e.st.Terminal() {
		e.toAct = e.st.ToAct(e.toAct[:0])
		seat := e.toAct[0]
		for _, s := range e.toAct {
			if e.b.controlled[s] {
				seat = s
				break
			}
		}
		e.legal = e.st.Legal(seat, e.legal[:0])
		if e.b.controlled[seat] {
			e.seat, e.obs = seat, e.st.Observe(seat)
			e.ids = slices.Grow(e.ids[:0], len(e.legal)*len(e.b.heads))[:len(e.legal)*len(e.b.heads)]
			if !e.b.tz.ActionIDs(e.obs, e.legal, e.ids) {
				return fmt.Errorf("training: %s seat %d has a legal action without an id", e.b.game, seat)
			}
			return nil
		}
		e.parts.Reset()
		d := e.parts.Build(e.st, seat, e.legal, e.ply, nil, e.recv[seat])
		a, _, err := wire.Answer(e.st, e.legal, e.bots[seat].Act(d))
		if err == nil {
			err = e.st.Apply(seat, a)
		}
		if err != nil {
			// The bot's error would speak of its seat's view: the trainer learns only that it failed.
			return fmt.Errorf("training: the %s opponent at seat %d gave no legal action", e.b.opponents[seat], seat)
		}
		e.ply++
	}
	return nil
}

// action is the legal action ids name, or an error naming why none.
func (e *env) action(ids []int32) (engine.Action, error) {
	heads := len(e.b.heads)
	if heads == 1 {
		for i, id := range e.ids {
			if id == ids[0] {
				return e.legal[i], nil
			}
		}
		return engine.Action{}, fmt.Errorf("%w: action id %d is not legal for seat %d", ErrIllegal, ids[0], e.seat)
	}
	for h, id := range ids {
		if id < 0 || int(id) >= e.b.heads[h] {
			return engine.Action{}, fmt.Errorf("%w: action id %d of head %d out of 0..%d", ErrIllegal, id, h, e.b.heads[h]-1)
		}
	}
	a, ok := e.b.tz.Action(e.obs, e.legal, ids)
	if !ok {
		return engine.Action{}, fmt.Errorf("%w: action ids %v name no legal action for seat %d", ErrIllegal, ids, e.seat)
	}
	return a, nil
}

// step plays the trainer's action, then the opponents; an episode that ends is followed at
// once by the next, and out says how the ended one finished.
func (e *env) step(ids []int32, out *outcome) error {
	a, err := e.action(ids)
	if err != nil {
		return err
	}
	if err := e.st.Apply(e.seat, a); err != nil {
		return fmt.Errorf("%w: seat %d: %w", ErrIllegal, e.seat, err)
	}
	e.steps++
	e.ply++
	if err := e.advance(); err != nil {
		return err
	}
	clear(out.rewards)
	out.terminated, out.truncated, out.steps = false, false, e.steps
	switch {
	case e.st.Terminal():
		res := e.st.Result()
		if res.Reason == engine.EndCap {
			out.truncated = true
		} else {
			out.terminated = true
			engine.RankRewards(res.Ranks, out.rewards)
		}
	case e.b.maxSteps > 0 && e.steps >= e.b.maxSteps:
		out.truncated = true
	default:
		return nil
	}
	return e.start(e.seed + uint64(len(e.b.envs)))
}
