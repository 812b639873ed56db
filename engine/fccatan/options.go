package fccatan

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/orrery/orrery/engine"
)

// Ruleset names.
const (
	RulesetSeed      = "seed"      // the seed's revision: 5 VP, 20 s rounds, no throwing
	RulesetPublished = "published" // the later revision: 8 VP, 8 s rounds, throwing, new costs
)

// Purchase kinds, in the order of the costs table.
const (
	buySettlement = iota + 1
	buyCity
	buyKnight
	buyCard
	buyHandover
)

var purchaseNames = [...]string{"", "settlement", "city", "knight", "card", "marker"}

// costs is what the bank charges, by purchase kind and resource.
type costs [buyCard + 1][numRes]int8

var rulesetCosts = map[string]costs{
	// The seed's costs table.
	RulesetSeed: {
		buySettlement: {Wood: 2, Brick: 2},
		buyCity:       {Wood: 1, Brick: 1, Ore: 1, Sheep: 1},
		buyKnight:     {Brick: 2, Sheep: 1},
		buyCard:       {Wood: 2, Ore: 1},
	},
	// The published revision: city = 2 wood + 2 brick + 1 sheep-or-ore (the sheep or ore is
	// chosen per purchase), knight = 2 ore, card = 2 sheep.
	RulesetPublished: {
		buySettlement: {Wood: 2, Brick: 2},
		buyCity:       {Wood: 2, Brick: 2},
		buyKnight:     {Ore: 2},
		buyCard:       {Sheep: 2},
	},
}

var options = []engine.Option{
	{Name: "ruleset", Default: RulesetSeed, Help: "seed (5 VP, 20 s rounds, no throwing) or published (8 VP, 8 s rounds, throwing, new costs)"},
	{Name: "map", Default: "auto", Help: "the field (hoops and piles, embedded data): default (60 x 40 m) or published (the default scaled by 0.6, 36 x 24 m); auto is the ruleset's own: default (seed) or published (published). A match is refused unless every start hoop can fetch each resource from its nearest pile within a round"},
	{Name: "team_size", Default: "4", Help: "players per team, 3 or 4: one number for every team, or one per seat (\"4,4,3\")"},
	{Name: "knights", Default: "2", Help: "starting knights each team names at setup, or \"any\" to let each team choose how many"},
	{Name: "round_seconds", Default: "auto", Help: "length of a round in seconds; auto is 20 (seed) or 8 (published)"},
	{Name: "tick_rate", Default: "10", Help: "ticks per second, a divisor of 1000"},
	{Name: "win_vp", Default: "auto", Help: "VP that win, checked after each market; auto is 5 (seed) or 8 (published)"},
	{Name: "top_speed_cm_s", Default: "600", Help: "every player's top speed, cm per second"},
	{Name: "reach_cm", Default: "100", Help: "reach for picking up a ball and for a knight's tag, cm"},
	{Name: "round_cap", Default: "40", Help: "safety cap: the game ends after this many rounds, most VP winning"},
	{Name: "idle_markets", Default: "8", Help: "the game also ends after this many markets in a row in which no team bought anything"},
	{Name: "trade_steps", Default: "2", Help: "offer-and-reply steps in each market"},
	{Name: "throw_range_cm", Default: "1000", Help: "published ruleset: how far a ball may be thrown to a teammate, cm"},
	{Name: "market_seconds", Default: "60", Help: "real time: wall-clock length of a market, shared among its steps"},
	{Name: "choice_seconds", Default: "10", Help: "real time: wall-clock time for setup, deployment and card decisions"},
	{Name: "clock", Default: ClockLockstep, Help: "how ticks resolve: lockstep (a tick resolves once every team has sent its intents, or on Advance) or wall (only Advance resolves a tick, on the wall clock; a team may resend its intents until then, the latest counting, and a team that sent nothing keeps its last intents; markets and setup resolve as in lockstep)"},
}

// renamed maps an option's former name to its name now, so the old name is refused with a
// message naming the new one (issue 12: the safety caps are named alike in every game).
var renamed = map[string]string{"max_rounds": "round_cap"}

// rulesetMap is each ruleset's own map, the map option's auto.
var rulesetMap = map[string]string{RulesetSeed: "default", RulesetPublished: "published"}

// Clock option values.
const (
	ClockLockstep = "lockstep" // a tick resolves when every team has sent its intents
	ClockWall     = "wall"     // only Advance resolves a tick
)

// config is a match's settings, immutable once built and shared by clones.
type config struct {
	ruleset        string
	field          *Field
	teams          int
	teamSize       [maxTeams]int8
	bonusVP        [maxTeams]int8 // the seed's 1 VP for a team of 3 among teams of 4
	knights        int            // -1: any number
	ticksPerRound  int
	tickMS         int
	speed, reach   int32
	step           int32 // the most a player runs in one tick, cm
	winVP          int
	roundCap       int
	idleMarkets    int
	tradeSteps     int
	throwing       bool
	throwRange     int32
	marketMS       int
	choiceMS       int
	costs          costs
	citySheepOrOre bool
	wall           bool     // clock=wall: only Advance resolves a tick
	spots          spots    // the grids of piles in reach and hoops, for the tick
	pileLabels     []string // static text for Render
	hoopLabels     []string
}

func newConfig(cfg engine.Config) (*config, error) {
	c := &config{teams: cfg.Seats}
	if cfg.Seats < 3 || cfg.Seats > maxTeams {
		return nil, fmt.Errorf("%w: fccatan takes 3 or 4 teams, not %d", engine.ErrBadOption, cfg.Seats)
	}
	if err := engine.CheckOptionNames(gameInfo, cfg.Options, renamed); err != nil {
		return nil, err
	}
	c.ruleset = cfg.Option(gameInfo, "ruleset")
	cs, ok := rulesetCosts[c.ruleset]
	if !ok {
		return nil, fmt.Errorf("%w: fccatan option ruleset=%q: want seed or published", engine.ErrBadOption, engine.Clip(c.ruleset, 64))
	}
	c.costs = cs
	published := c.ruleset == RulesetPublished
	c.citySheepOrOre, c.throwing = published, published
	m := cfg.Option(gameInfo, "map")
	if m == "auto" {
		m = rulesetMap[c.ruleset]
	}
	if c.field = fields[m]; c.field == nil {
		return nil, fmt.Errorf("%w: fccatan option map=%q: known maps are auto, %s", engine.ErrBadOption, engine.Clip(m, 64), fieldNames())
	}
	if err := c.parseTeamSizes(cfg.Option(gameInfo, "team_size")); err != nil {
		return nil, err
	}
	if k := cfg.Option(gameInfo, "knights"); k == "any" {
		c.knights = -1
	} else {
		n, err := engine.IntOption(cfg, gameInfo, "knights", 0, 3)
		if err != nil {
			return nil, err
		}
		c.knights = n
	}
	seconds := 20
	if published {
		seconds = 8
	}
	if cfg.Option(gameInfo, "round_seconds") != "auto" {
		n, err := engine.IntOption(cfg, gameInfo, "round_seconds", 1, 600)
		if err != nil {
			return nil, err
		}
		seconds = n
	}
	rate, err := engine.IntOption(cfg, gameInfo, "tick_rate", 1, 100)
	if err != nil {
		return nil, err
	}
	if 1000%rate != 0 {
		return nil, fmt.Errorf("%w: fccatan option tick_rate=%d: want a divisor of 1000", engine.ErrBadOption, rate)
	}
	c.tickMS = 1000 / rate
	c.ticksPerRound = seconds * rate
	c.winVP = 5
	if published {
		c.winVP = 8
	}
	if cfg.Option(gameInfo, "win_vp") != "auto" {
		if c.winVP, err = engine.IntOption(cfg, gameInfo, "win_vp", 1, 100); err != nil {
			return nil, err
		}
	}
	speed, err := engine.IntOption(cfg, gameInfo, "top_speed_cm_s", 1, 5000)
	if err != nil {
		return nil, err
	}
	reach, err := engine.IntOption(cfg, gameInfo, "reach_cm", 1, 1000)
	if err != nil {
		return nil, err
	}
	c.speed, c.reach = int32(speed), int32(reach)
	c.step = int32(speed * c.tickMS / 1000)
	if c.step < 1 {
		return nil, fmt.Errorf("%w: fccatan: top speed %d cm/s runs less than 1 cm a tick", engine.ErrBadOption, speed)
	}
	if c.roundCap, err = engine.IntOption(cfg, gameInfo, "round_cap", 1, 1000); err != nil {
		return nil, err
	}
	if c.idleMarkets, err = engine.IntOption(cfg, gameInfo, "idle_markets", 1, 1000); err != nil {
		return nil, err
	}
	if c.tradeSteps, err = engine.IntOption(cfg, gameInfo, "trade_steps", 0, 8); err != nil {
		return nil, err
	}
	tr, err := engine.IntOption(cfg, gameInfo, "throw_range_cm", 0, 10000)
	if err != nil {
		return nil, err
	}
	c.throwRange = int32(tr)
	ms, err := engine.IntOption(cfg, gameInfo, "market_seconds", 1, 3600)
	if err != nil {
		return nil, err
	}
	c.marketMS = ms * 1000
	cs2, err := engine.IntOption(cfg, gameInfo, "choice_seconds", 1, 3600)
	if err != nil {
		return nil, err
	}
	c.choiceMS = cs2 * 1000
	switch clock := cfg.Option(gameInfo, "clock"); clock {
	case ClockLockstep:
	case ClockWall:
		c.wall = true
	default:
		return nil, fmt.Errorf("%w: fccatan option clock=%q: want lockstep or wall", engine.ErrBadOption, engine.Clip(clock, 64))
	}
	if err := c.checkReach(); err != nil {
		return nil, err
	}
	c.spots = newSpots(c.field, c.reach)
	c.labels()
	return c, nil
}

// parseTeamSizes reads "4" or "4,3,4" and grants the seed's bonus VP to a team of 3 in a game
// of 4-player teams.
func (c *config) parseTeamSizes(v string) error {
	parts := strings.Split(v, ",")
	if len(parts) != 1 && len(parts) != c.teams {
		return fmt.Errorf("%w: fccatan option team_size=%q: want one size or %d", engine.ErrBadOption, engine.Clip(v, 64), c.teams)
	}
	largest := int8(0)
	for t := 0; t < c.teams; t++ {
		p := parts[0]
		if len(parts) > 1 {
			p = parts[t]
		}
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 3 || n > maxAvatars {
			return fmt.Errorf("%w: fccatan option team_size=%q: sizes are 3 or 4", engine.ErrBadOption, engine.Clip(v, 64))
		}
		c.teamSize[t] = int8(n)
		largest = max(largest, int8(n))
	}
	for t := 0; t < c.teams; t++ {
		if c.teamSize[t] == 3 && largest == 4 {
			c.bonusVP[t] = 1
		}
	}
	return nil
}

// TickInterval is the wall-clock length of one tick under options (nil: the defaults), for a
// server that ticks a match in real time before it has a state.
func TickInterval(opts map[string]string) (time.Duration, error) {
	rate, err := engine.IntOption(engine.Config{Options: opts}, gameInfo, "tick_rate", 1, 100)
	if err != nil {
		return 0, err
	}
	if 1000%rate != 0 {
		return 0, fmt.Errorf("%w: fccatan option tick_rate=%d: want a divisor of 1000", engine.ErrBadOption, rate)
	}
	return time.Duration(1000/rate) * time.Millisecond, nil
}
