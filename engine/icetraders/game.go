// Package icetraders is the rules engine of IceTraders, John Cooper's Icehouse space opera for
// 2 to 6 players with secret Good and Evil alignments (rules/icetraders.md).
package icetraders

import (
	"fmt"
	"strconv"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// Name is the registry key.
const Name = "icetraders"

// Option names.
const (
	OptStash      = "stash"
	OptAlignment  = "alignment"
	OptTurnCap    = "turn_cap"
	OptPassRounds = "pass_rounds"

	// The rules' [decision]s (rules/icetraders.md), each a default a host may change.
	OptGreenAdd          = "green_add"
	OptReduceColor       = "reduce_color"
	OptRndWhere          = "rnd_where"
	OptRepickOrder       = "repick_order"
	OptGoodWinEliminated = "good_win_includes_eliminated"
	OptFirstTiebreak     = "first_tiebreak"
)

// renamedValues maps enumerated option values renamed to lower_snake_case (issue 12) to their
// new spelling, so that an old value is refused with a message naming the new one.
var renamedValues = map[string]string{"second-pick": "second_pick", "lowest-seat": "lowest_seat"}

// Limits on the options. The turn cap bounds ids to int16: at most a few ships per turn.
const (
	maxPerKind    = 20
	maxTurnCap    = 1000
	maxPassRounds = 100
)

type game struct{}

func init() { engine.Register(game{}) }

var _ engine.Game = game{}

// Info is built once: engine.New and parseConfig read it for every match, and a random game
// is over in about twenty actions, so building it each time was a tenth of the game's work.
func (game) Info() engine.Info { return info }

var info = engine.Info{
	Name:         Name,
	Title:        "IceTraders",
	MinSeats:     2,
	MaxSeats:     6,
	Simultaneous: true,
	Options: []engine.Option{
		{Name: OptStash, Default: "auto", Help: "pieces of each color and size in the stash: a number 2-20, or auto (5; 6 with 5-6 players). " +
			"It must hold at least 3 small pieces per seat (4 x stash >= 3 x seats) so every first ship can be placed."},
		{Name: OptAlignment, Default: "chosen", Help: "chosen: every seat secretly chooses Good or Evil; random: each seat is assigned Good or Evil by a fair coin (for ladders)"},
		{Name: OptTurnCap, Default: "60", Help: "turns per player (1-1000) after which the match is a draw among the players left"},
		{Name: OptPassRounds, Default: "2", Help: "full rounds in which every player passed (1-100) that end the match in a draw among the players left"},
		{Name: OptGreenAdd, Default: "own", Help: "where green's add-a-ship power puts the new ship: own (the acting ship's own system, which must hold fewer than four ships) " +
			"or any (any system, not a hyperspace, that holds fewer than four ships, wherever the acting ship is: the seed's \"a system\"; " +
			"the add action then names the system: add medium from s4 to sys3)"},
		{Name: OptReduceColor, Default: "same", Help: "the piece a red attack reduces a larger ship to: same (the next smaller piece of its own color) " +
			"or choose (the next smaller size in any color the stash holds, chosen by the attacker; the attack then names it: attack s7 with s4 into blue, " +
			"and a change of color is a concentration's catalyst)"},
		{Name: OptRndWhere, Default: "same", Help: "where R&D's new ship appears: same (the system the three ships were in) " +
			"or any (any system, not a hyperspace; the action then names it: research s1 s2 s3 for red large at sys5)"},
		{Name: OptRepickOrder, Default: "seat", Help: "which opening picks the stash serves first when it cannot serve them all: seat (every first pick in seat order, then every second pick in seat order) " +
			"or pairs (seat 0's first and second picks, then seat 1's, and so on); unserved picks are chosen again in seat order, first pick before second"},
		{Name: OptGoodWinEliminated, Default: "true", Help: "when no Evil player is left, whether eliminated Good players win with the Good players still in the game: true or false"},
		{Name: OptFirstTiebreak, Default: "second_pick", Help: "how a tie for the most connections of a first pick is broken: second_pick (the tied seats' second picks' connections, then the lowest seat) " +
			"or lowest_seat (the lowest tied seat)"},
	},
}

func (game) Catalog() proto.Message { return catalog() }

// config is a validated match configuration.
type config struct {
	seats       int
	perKind     int
	randomAlign bool
	turnCap     int
	passRounds  int
	// The [decision] options. Each zero value is the default, so a config built field by field
	// (FromObservation) plays the default rules.
	addAnySystem     bool // green_add=any
	reduceChoose     bool // reduce_color=choose
	rndAnySystem     bool // rnd_where=any
	repickPairs      bool // repick_order=pairs
	goodWinAliveOnly bool // good_win_includes_eliminated=false
	tiebreakSeat     bool // first_tiebreak=lowest_seat
}

// decisionOptions are the [decision] options: each a default and its one alternative, in the
// order of config's flags.
var decisionOptions = [...]struct{ name, def, alt string }{
	{OptGreenAdd, "own", "any"},
	{OptReduceColor, "same", "choose"},
	{OptRndWhere, "same", "any"},
	{OptRepickOrder, "seat", "pairs"},
	{OptGoodWinEliminated, "true", "false"},
	{OptFirstTiebreak, "second_pick", "lowest_seat"},
}

// defaultConfigs are the configurations of matches that set no option, by seat count, read
// once: most matches (ladders, playouts) set none, and looking up each option's default by
// name was a twentieth of a random game's work.
var defaultConfigs = func() (d [maxSeats + 1]config) {
	for n := info.MinSeats; n <= info.MaxSeats; n++ {
		d[n], _ = readConfig(engine.Config{Seats: n})
	}
	return d
}()

func parseConfig(cfg engine.Config) (config, error) {
	if len(cfg.Options) == 0 && cfg.Seats >= info.MinSeats && cfg.Seats <= info.MaxSeats {
		return defaultConfigs[cfg.Seats], nil
	}
	return readConfig(cfg)
}

// readConfig validates cfg's options, each unset one at its default.
func readConfig(cfg engine.Config) (config, error) {
	c := config{seats: cfg.Seats}
	if cfg.Seats < info.MinSeats || cfg.Seats > info.MaxSeats {
		return c, fmt.Errorf("%w: icetraders takes 2 to 6 seats, not %d", engine.ErrBadOption, cfg.Seats)
	}
	if err := engine.CheckOptionNames(info, cfg.Options, nil); err != nil {
		return c, err
	}
	switch v := cfg.Option(info, OptStash); v {
	case "auto":
		c.perKind = 5
		if cfg.Seats >= 5 {
			c.perKind = 6
		}
	default:
		n, err := strconv.Atoi(v)
		if err != nil || n < 2 || n > maxPerKind {
			return c, fmt.Errorf("%w: %s=%q: want auto or a number 2-%d", engine.ErrBadOption, OptStash, engine.Clip(v, 32), maxPerKind)
		}
		if 4*n < 3*cfg.Seats {
			return c, fmt.Errorf("%w: %s=%d is too small for %d seats: the stash must hold 3 small pieces per seat", engine.ErrBadOption, OptStash, n, cfg.Seats)
		}
		c.perKind = n
	}
	switch v := cfg.Option(info, OptAlignment); v {
	case "chosen":
	case "random":
		c.randomAlign = true
	default:
		return c, fmt.Errorf("%w: %s=%q: want chosen or random", engine.ErrBadOption, OptAlignment, engine.Clip(v, 32))
	}
	var err error
	if c.turnCap, err = engine.IntOption(cfg, info, OptTurnCap, 1, maxTurnCap); err != nil {
		return c, err
	}
	if c.passRounds, err = engine.IntOption(cfg, info, OptPassRounds, 1, maxPassRounds); err != nil {
		return c, err
	}
	// The flags sit apart from the names: an error quoting a name would otherwise move c to
	// the heap, one allocation in every match.
	set := [len(decisionOptions)]*bool{&c.addAnySystem, &c.reduceChoose, &c.rndAnySystem, &c.repickPairs, &c.goodWinAliveOnly, &c.tiebreakSeat}
	for i, o := range &decisionOptions {
		switch v := cfg.Option(info, o.name); v {
		case o.def:
		case o.alt:
			*set[i] = true
		default:
			if now, ok := renamedValues[v]; ok && (now == o.def || now == o.alt) {
				return c, fmt.Errorf("%w: %s=%q was renamed %q", engine.ErrBadOption, o.name, v, now)
			}
			return c, fmt.Errorf("%w: %s=%q: want %s or %s", engine.ErrBadOption, o.name, engine.Clip(v, 32), o.def, o.alt)
		}
	}
	return c, nil
}

func (game) New(cfg engine.Config) (engine.State, error) {
	c, err := parseConfig(cfg)
	if err != nil {
		return nil, err
	}
	return newState(c, cfg.Seed), nil
}

func catalog() *pb.Catalog {
	return &pb.Catalog{
		Powers: []*pb.Power{
			{Color: pb.Color_COLOR_RED, Name: "Warriors", Summary: "attack another ship in the same place: discard it if no larger, else reduce it one size"},
			{Color: pb.Color_COLOR_YELLOW, Name: "Navigators", Summary: "move to a connected system, or from a hyperspace to anywhere"},
			{Color: pb.Color_COLOR_GREEN, Name: "Colonists", Summary: "grow one size, or add a ship of the same color and no larger size to a system of fewer than 4 ships"},
			{Color: pb.Color_COLOR_BLUE, Name: "IceTraders", Summary: "trade for an equal- or smaller-sized piece of any color"},
		},
		Colors: []pb.Color{pb.Color_COLOR_RED, pb.Color_COLOR_YELLOW, pb.Color_COLOR_GREEN, pb.Color_COLOR_BLUE},
		Sizes:  []pb.Size{pb.Size_SIZE_SMALL, pb.Size_SIZE_MEDIUM, pb.Size_SIZE_LARGE},
	}
}
