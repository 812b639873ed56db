package pantropia

import (
	_ "embed"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/orrery/orrery/engine"
)

// The defaults of the data options live in embedded files, so a host changes a dice table,
// the deck or the menu with an option and never with code.
var (
	//go:embed data/dice.txt
	diceFile string
	//go:embed data/deck.txt
	deckFile string
	//go:embed data/menu.txt
	menuFile string
)

// Swappable dice, in size order.
const (
	D4 = iota
	D6
	D10
	D12
	D20
	NumDice
)

var dieNames = [NumDice]string{"d4", "d6", "d10", "d12", "d20"}
var dieSides = [NumDice]int{4, 6, 10, 12, 20}

// Card kinds; the numbers match the proto enum CardKind.
type Card int8

const (
	cardNone Card = iota
	OrbitalMirror
	SolarShade
	SpaceElevator
	ShuttleCard
	Aquifer
	GuidedComet
	Luddite
	Technocalypse
	numCards
)

var cardNames = [numCards]string{"none", "orbital_mirror", "solar_shade", "space_elevator", "shuttle", "aquifer", "guided_comet", "luddite_legislation", "technocalypse"}
var cardTitles = [numCards]string{"?", "Orbital Mirror", "Solar Shade", "Space Elevator", "Shuttle", "Aquifer", "Guided Comet", "Luddite Legislation", "Technocalypse"}

func (c Card) String() string {
	if c < 0 || c >= numCards {
		return "?"
	}
	return cardNames[c]
}

// Items on the building menu; +1 gives the proto enum Item.
const (
	ItemAtmosphere = iota
	ItemHabitat
	ItemArcology
	ItemShuttle
	ItemCard
	numItems
)

var itemNames = [numItems]string{"atmosphere", "habitat", "arcology", "shuttle", "card"}
var itemShort = [numItems]string{"atm", "hab", "arc", "shu", "card"}

const (
	maxSlots     = 32 // menu chart slots, all items together
	maxItemSlots = 8
	maxDeck      = 64
	maxSeats     = 4
)

// Pieces per player, from the seed.
const (
	supplyHabitats   = 8
	supplyArcologies = 5
	supplyRings      = NumJoints
	countdownEnd     = 5  // Technocalypse cards in the countdown that end the world
	discardAt        = 11 // chips from which a Technocalypse halves a hand
	earthRate        = 5
	betterRate       = 3 // Space Elevator, or a shuttle on the color
)

// config is one match's immutable configuration, shared by clones.
type config struct {
	seats         int
	dice          [NumDice][NumColors]int8
	deck          [numCards]int8 // technocalypse: the reserve
	menu          [maxSlots]Color
	slotItem      [maxSlots]int8
	slotName      [maxSlots]string
	itemFirst     [numItems]int8 // first slot of each item
	itemSlots     [numItems]int8
	slots         int
	turnCap       int
	stallRounds   int
	offersPerTurn int
	askAll        bool // Luddite windows ask every other seat holding cards, not only holders
	replaceAlways bool // another player's ring may be replaced even when an empty joint is open
	reactMS       int  // a Luddite window's deadline for each seat asked, in milliseconds
	// options are the options as given, for the observation: rules every seat may know.
	options map[string]string
}

var options = []engine.Option{
	{Name: "dice", Default: oneLine(diceFile), Help: "faces of each color (red,orange,yellow,green,blue,purple) on each swappable die, as dN:counts"},
	{Name: "deck", Default: oneLine(deckFile), Help: "cards in the deck as card:count; technocalypse is the reserve"},
	{Name: "menu", Default: oneLine(menuFile), Help: "the printed building menu as item:colors of its slots"},
	{Name: "turn_cap", Default: "400", Help: "turns after which the game is scored as it stands"},
	{Name: "stall_rounds", Default: "10", Help: "full rounds without an empty joint filled after which the game is scored (0: never)"},
	{Name: "offers_per_turn", Default: "8", Help: "trade offers the active player may make in one turn"},
	{Name: "replace", Default: "blocked", Help: "when you may replace another player's ring: blocked (only when no empty joint is open to you) or always"},
	{Name: "luddite_window", Default: "all", Help: "who a Luddite window asks: all (every other seat holding any card, so asking reveals nothing) or holders (only Luddite holders)"},
	{Name: "reaction_ms", Default: "2000", Help: "the short deadline of each seat asked in a Luddite window, in milliseconds (0: the match's own clock)"},
}

// oneLine drops comment lines and joins the rest with single spaces.
func oneLine(text string) string {
	var parts []string
	for _, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		parts = append(parts, strings.Fields(line)...)
	}
	return strings.Join(parts, " ")
}

func parseColor(s string) (Color, bool) {
	for c := Color(0); c < NumColors; c++ {
		if colorNames[c] == s {
			return c, true
		}
	}
	return 0, false
}

// clip shortens an option value, or a piece of one, quoted in an error.
func clip(s string) string { return engine.Clip(s, 64) }

func badOption(name, format string, args ...any) error {
	return fmt.Errorf("%w: pantropia option %s: %s", engine.ErrBadOption, name, fmt.Sprintf(format, args...))
}

// pairs splits "key:value key:value" into its pairs, each key once.
func pairs(name, text string) ([][2]string, error) {
	var out [][2]string
	seen := map[string]bool{}
	for _, f := range strings.Fields(oneLine(text)) {
		k, v, ok := strings.Cut(f, ":")
		if !ok || k == "" || v == "" {
			return nil, badOption(name, "%q is not key:value", clip(f))
		}
		if seen[k] {
			return nil, badOption(name, "%s given twice", clip(k))
		}
		seen[k] = true
		out = append(out, [2]string{k, v})
	}
	return out, nil
}

func newConfig(cfg engine.Config) (*config, error) {
	c := &config{seats: cfg.Seats, options: maps.Clone(cfg.Options)}
	if cfg.Seats < 3 || cfg.Seats > maxSeats {
		return nil, fmt.Errorf("%w: pantropia takes 3 or 4 seats, not %d", engine.ErrBadOption, cfg.Seats)
	}
	if err := engine.CheckOptionNames(game{}.Info(), cfg.Options, nil); err != nil {
		return nil, err
	}
	opt := func(name string) string { return cfg.Option(game{}.Info(), name) }
	if err := c.parseDice(opt("dice")); err != nil {
		return nil, err
	}
	if err := c.parseDeck(opt("deck")); err != nil {
		return nil, err
	}
	if err := c.parseMenu(opt("menu")); err != nil {
		return nil, err
	}
	for _, o := range []struct {
		name string
		dst  *int
		min  int
	}{{"turn_cap", &c.turnCap, 1}, {"stall_rounds", &c.stallRounds, 0}, {"offers_per_turn", &c.offersPerTurn, 0}, {"reaction_ms", &c.reactMS, 0}} {
		v, err := engine.IntOption(cfg, game{}.Info(), o.name, o.min, 100000)
		if err != nil {
			return nil, err
		}
		*o.dst = v
	}
	switch strings.TrimSpace(opt("luddite_window")) {
	case "all":
		c.askAll = true
	case "holders":
	default:
		return nil, badOption("luddite_window", "%q is neither all nor holders", clip(opt("luddite_window")))
	}
	switch strings.TrimSpace(opt("replace")) {
	case "blocked":
	case "always":
		c.replaceAlways = true
	default:
		return nil, badOption("replace", "%q is neither blocked nor always", clip(opt("replace")))
	}
	return c, nil
}

func (c *config) parseDice(text string) error {
	ps, err := pairs("dice", text)
	if err != nil {
		return err
	}
	var have [NumDice]bool
	for _, p := range ps {
		d := -1
		for i, n := range dieNames {
			if n == p[0] {
				d = i
			}
		}
		if d < 0 {
			return badOption("dice", "unknown die %q (dice are d4 d6 d10 d12 d20)", clip(p[0]))
		}
		counts := strings.Split(p[1], ",")
		if len(counts) != NumColors {
			return badOption("dice", "%s needs %d counts, one per color", p[0], NumColors)
		}
		sum := 0
		for i, s := range counts {
			v, err := strconv.Atoi(s)
			if err != nil || v < 0 || v > dieSides[d] {
				return badOption("dice", "%s: bad count %q", p[0], clip(s))
			}
			c.dice[d][i] = int8(v)
			sum += v
		}
		if sum != dieSides[d] {
			return badOption("dice", "%s has %d faces, not %d", p[0], sum, dieSides[d])
		}
		have[d] = true
	}
	for d, ok := range have {
		if !ok {
			return badOption("dice", "%s missing", dieNames[d])
		}
	}
	return nil
}

func (c *config) parseDeck(text string) error {
	ps, err := pairs("deck", text)
	if err != nil {
		return err
	}
	total := 0
	for _, p := range ps {
		k := cardNone
		for i := OrbitalMirror; i < numCards; i++ {
			if cardNames[i] == p[0] {
				k = i
			}
		}
		if k == cardNone {
			return badOption("deck", "unknown card %q", clip(p[0]))
		}
		v, err := strconv.Atoi(p[1])
		if err != nil || v < 0 || v > 20 {
			return badOption("deck", "%s: count %q is not 0..20", p[0], clip(p[1]))
		}
		c.deck[k] = int8(v)
		total += v
	}
	if total > maxDeck {
		return badOption("deck", "%d cards, at most %d", total, maxDeck)
	}
	return nil
}

func (c *config) parseMenu(text string) error {
	ps, err := pairs("menu", text)
	if err != nil {
		return err
	}
	var colors [numItems][]Color
	for _, p := range ps {
		it := -1
		for i, n := range itemNames {
			if n == p[0] {
				it = i
			}
		}
		if it < 0 {
			return badOption("menu", "unknown item %q", clip(p[0]))
		}
		for _, s := range strings.Split(p[1], ",") {
			col, ok := parseColor(s)
			if !ok {
				return badOption("menu", "%s: unknown color %q", p[0], clip(s))
			}
			colors[it] = append(colors[it], col)
		}
		if len(colors[it]) > maxItemSlots {
			return badOption("menu", "%s has more than %d slots", p[0], maxItemSlots)
		}
	}
	for it := range colors {
		if len(colors[it]) == 0 {
			return badOption("menu", "%s missing", itemNames[it])
		}
		c.itemFirst[it] = int8(c.slots)
		c.itemSlots[it] = int8(len(colors[it]))
		for k, col := range colors[it] {
			c.menu[c.slots] = col
			c.slotItem[c.slots] = int8(it)
			c.slotName[c.slots] = itemShort[it] + "." + strconv.Itoa(k)
			c.slots++
		}
	}
	return nil
}

// slotByName finds a menu slot by its notation.
func (c *config) slotByName(s string) int {
	for i := 0; i < c.slots; i++ {
		if c.slotName[i] == s {
			return i
		}
	}
	return -1
}
