// Package planet is the rules engine of Planet (Blue Orange, 2018, by Urtis Šulinskas): each
// player drafts continent tiles onto a dodecahedron core over 12 turns, and from turn 3 the
// planets compete for animal cards by the shape of their regions. See rules/planet.md.
package planet

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
)

func init() { engine.Register(game{}) }

// The options. Every [decision] of rules/planet.md that is a default lives here or in the data.
const (
	OptData      = "data"
	OptBeginners = "beginners"
	OptMystery   = "mystery"
	OptAhead     = "mystery_ahead"
	OptRotate    = "rotate_first_player"
	OptCap       = "turn_cap"
)

// renamed maps the options' old names to their lower_snake_case names (issue 12).
var renamed = map[string]string{
	"cap":                 OptCap,
	"mystery-ahead":       OptAhead,
	"rotate-first-player": OptRotate,
}

// MaxDataBytes bounds the inline data set, so a client cannot make the server parse and
// store an arbitrarily large option.
const MaxDataBytes = 1 << 20

type game struct{}

var (
	_ engine.Game    = game{}
	_ engine.Renamer = game{}
)

// RenamedOptions maps old option names to new ones, so that an old name is refused with a
// message naming its replacement.
func (game) RenamedOptions() map[string]string { return renamed }

func (game) Info() engine.Info { return info }

// info is built once: New reads it for every match, and a playout starts one per game.
var info = engine.Info{
	Name:     "planet",
	Title:    "Planet",
	MinSeats: 2,
	MaxSeats: 4,
	Options: []engine.Option{
		{Name: OptData, Default: "", Data: true, Help: "another data set (tiles, animals, objectives, layout) as inline JSON, at most 1 MiB; parts left out keep the built-in ones. " +
			"The engine never reads a file: a server may accept the name of a data set from the directory its operator chose (orrery serve --data-dir) and passes the engine its JSON"},
		{Name: OptBeginners, Default: "false", Help: "variant 1: no objective cards, every animal scores 1 point"},
		{Name: OptMystery, Default: "false", Help: "variant 2: per turn 3-12 one face-up and one face-down animal"},
		{Name: OptAhead, Default: "3", Help: "variant 2: the face-down animal of turn k is revealed at the end of turn k minus this (1-10)"},
		{Name: OptRotate, Default: "true", Help: "pass the first-player token to the next seat after each turn"},
		{Name: OptCap, Default: "12", Help: "safety cap: the game is scored after this many turns (1-12)"},
	},
}

func (game) Catalog() proto.Message { return catalog() }

// options are a match's parsed options.
type options struct {
	beginners bool
	mystery   bool
	rotate    bool
	ahead     int8
	lastTurn  int8 // 12, or the cap
}

func (game) New(cfg engine.Config) (engine.State, error) {
	if cfg.Seats < info.MinSeats || cfg.Seats > info.MaxSeats {
		return nil, fmt.Errorf("%w: planet takes %d to %d seats, not %d", engine.ErrBadOption, info.MinSeats, info.MaxSeats, cfg.Seats)
	}
	if err := engine.CheckOptionNames(info, cfg.Options, renamed); err != nil {
		return nil, err
	}
	flag := func(name string) (bool, error) {
		v := cfg.Option(info, name)
		b, err := strconv.ParseBool(v)
		if err != nil {
			return false, fmt.Errorf("%w: %s must be true or false, not %q", engine.ErrBadOption, name, engine.Clip(v, 32))
		}
		return b, nil
	}
	number := func(name string, lo, hi int) (int8, error) {
		n, err := engine.IntOption(cfg, info, name, lo, hi)
		return int8(n), err
	}
	var o options
	var err error
	if o.beginners, err = flag(OptBeginners); err != nil {
		return nil, err
	}
	if o.mystery, err = flag(OptMystery); err != nil {
		return nil, err
	}
	if o.rotate, err = flag(OptRotate); err != nil {
		return nil, err
	}
	if o.ahead, err = number(OptAhead, 1, TurnsPerGame-FirstAnimalTurn+1); err != nil {
		return nil, err
	}
	if o.lastTurn, err = number(OptCap, 1, TurnsPerGame); err != nil {
		return nil, err
	}
	d, err := LoadData(cfg.Option(info, OptData))
	if err != nil {
		return nil, err
	}
	if !o.beginners && len(d.Objectives) < cfg.Seats {
		return nil, fmt.Errorf("%w: data: %d objective cards for %d seats", engine.ErrBadOption, len(d.Objectives), cfg.Seats)
	}
	return newState(d, o, cfg.Seats, cfg.Seed), nil
}

// newState deals a match [rule: Setup].
func newState(d *Data, o options, seats int, seed uint64) *state {
	b := &stateBlock{}
	s := &b.state // zero: fields set one by one, not by copying a whole state over it
	s.d, s.opt, s.seats, s.rng, s.events = d, o, int8(seats), *engine.NewRand(seed), b.events[:0]
	r := &s.rng
	var scratch [permScratch]int

	// Tiles: shuffled into 10 face-down stacks of 5; stacks 11 and 12 start empty.
	tiles := perm(r, scratch[:0], len(d.Tiles))
	for i := range s.stacks[:TileStacks] {
		for k, t := range tiles[i*StackSize : (i+1)*StackSize] {
			s.stacks[i][k] = int16(t)
		}
	}
	for i := 0; i < TileStacks; i++ {
		s.stackN[i] = StackSize
	}

	// Animals: 20 cards drawn at random and laid out by turn; the rest stay out, unseen.
	var deckScratch [permScratch]int
	deck := perm(r, deckScratch[:0], len(d.Animals))
	if o.mystery {
		// Two rows of 10: per turn 3-12 one card face up, then one face down.
		columns := TurnsPerGame - FirstAnimalTurn + 1
		s.cards = b.cards[:0]
		for k := 0; k < columns; k++ {
			turn := int8(FirstAnimalTurn + k)
			s.cards = append(s.cards,
				card{id: int16(deck[k]), turn: turn, owner: -1},
				card{id: int16(deck[columns+k]), turn: turn, owner: -1, faceDown: true})
		}
		s.faceDown = int8(columns)
	} else {
		s.cards = slices.Grow(b.cards[:0], d.layoutCards())
		next := 0
		for k, n := range d.Layout {
			for j := 0; j < n; j++ {
				s.cards = append(s.cards, card{id: int16(deck[next]), turn: int8(FirstAnimalTurn + k), owner: -1})
				next++
			}
		}
	}

	// Objectives: one secret card per seat, dealt without repeats.
	for i := range s.planets {
		s.planets[i].clear()
		s.planets[i].objective = -1
	}
	if !o.beginners {
		deal := perm(r, scratch[:0], len(d.Objectives))
		s.objN = int8(len(deal))
		for i, k := range deal {
			s.objDeal[i] = int8(k)
		}
		for seat := 0; seat < seats; seat++ {
			s.planets[seat].objective = s.objDeal[seat]
			s.log(event{kind: evObjective, seat: int8(seat)})
		}
	}
	s.laid = int8(len(s.cards)) // laid out in column order
	s.revealMystery(0)
	s.turn = 1
	s.startTurn()
	return s
}

// stateBlock is a new match in one allocation: the state, room for the event log (a 4-seat
// game logs about 130 events) and the laid-out cards (20 in the built-in set and in variant 2).
type stateBlock struct {
	state
	events [160]event
	cards  [2 * (TurnsPerGame - FirstAnimalTurn + 1)]card
}

// permScratch is room on the stack for the permutations New draws (50 tiles, 45 animals in
// the built-in set); larger data sets take the heap.
const permScratch = 64

// perm is rand.New(src).Perm(n) drawn into buf: the same numbers from the same draws (Perm is
// a Fisher-Yates shuffle of 0..n-1, as rand.Shuffle draws it), without an allocation when n
// fits buf, and from src directly rather than through rand.Rand's interface.
func perm(src *rand.PCG, buf []int, n int) []int {
	p := slices.Grow(buf[:0], n)[:n]
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- { // rand.Shuffle's loop, without a call per swap
		// j is IntN(i+1) as math/rand/v2 draws it: a power of two takes the low bits, else
		// an unbiased multiply-and-reject (Lemire's), which its 32-bit form also follows.
		m := uint64(i + 1)
		var j uint64
		if m&(m-1) == 0 {
			j = src.Uint64() & (m - 1)
		} else {
			hi, lo := bits.Mul64(src.Uint64(), m)
			if lo < m {
				for thresh := -m % m; lo < thresh; {
					hi, lo = bits.Mul64(src.Uint64(), m)
				}
			}
			j = hi
		}
		p[i], p[j] = p[j], p[i]
	}
	return p
}
