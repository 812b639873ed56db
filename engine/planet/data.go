package planet

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/orrery/orrery/engine"
)

// Habitat is the land of one area. None is an empty area; the numbers match the proto enum.
type Habitat uint8

const (
	None Habitat = iota
	Ocean
	Desert
	Mountain
	Forest
	Glacier
	Habitats = 5 // the five real habitats, Ocean..Glacier
)

var habitatNames = [...]string{"none", "ocean", "desert", "mountain", "forest", "glacier"}

func (h Habitat) String() string {
	if int(h) < len(habitatNames) {
		return habitatNames[h]
	}
	return "habitat?"
}

// Letter is the habitat's one-letter mark in renders: O D M F G, and . for an empty area.
func (h Habitat) Letter() byte {
	if h > Glacier {
		return '?'
	}
	return ".ODMFG"[h]
}

// ParseHabitat reads a habitat's name.
func ParseHabitat(s string) (Habitat, bool) {
	for h := Ocean; h <= Glacier; h++ {
		if s == habitatNames[h] {
			return h, true
		}
	}
	return None, false
}

// Tile is a continent tile's 5 areas, clockwise.
type Tile [5]Habitat

func (t Tile) String() string {
	var b strings.Builder
	for i, h := range t {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(h.String())
	}
	return b.String()
}

// Kind is the kind of an animal card's requirement.
type Kind uint8

const (
	MostRegions        Kind = 1 // the most distinct regions of X
	LargestTouching    Kind = 2 // the largest region of X touching Y
	LargestNotTouching Kind = 3 // the largest region of X touching no Y
)

// Requirement is what an animal card asks: X is the card's habitat, Y the other habitat.
type Requirement struct {
	Kind Kind
	X, Y Habitat
}

func (r Requirement) String() string {
	switch r.Kind {
	case MostRegions:
		return "most " + r.X.String() + " regions"
	case LargestTouching:
		return "largest " + r.X.String() + " touching " + r.Y.String()
	case LargestNotTouching:
		return "largest " + r.X.String() + " not touching " + r.Y.String()
	}
	return "requirement?"
}

// ParseRequirement reads "most X regions", "largest X touching Y" or "largest X not touching Y".
func ParseRequirement(s string) (Requirement, error) {
	f := strings.Fields(s)
	habitat := func(w string) (Habitat, error) {
		h, ok := ParseHabitat(w)
		if !ok {
			return None, fmt.Errorf("unknown habitat %s", q(w))
		}
		return h, nil
	}
	var r Requirement
	var err error
	switch {
	case len(f) == 3 && f[0] == "most" && f[2] == "regions":
		r.Kind = MostRegions
		r.X, err = habitat(f[1])
	case len(f) == 4 && f[0] == "largest" && f[2] == "touching":
		r.Kind = LargestTouching
		if r.X, err = habitat(f[1]); err == nil {
			r.Y, err = habitat(f[3])
		}
	case len(f) == 5 && f[0] == "largest" && f[2] == "not" && f[3] == "touching":
		r.Kind = LargestNotTouching
		if r.X, err = habitat(f[1]); err == nil {
			r.Y, err = habitat(f[4])
		}
	default:
		return r, fmt.Errorf("requirement %s is none of \"most X regions\", \"largest X touching Y\", \"largest X not touching Y\"", q(s))
	}
	if err != nil {
		return r, err
	}
	if r.Kind != MostRegions && r.X == r.Y {
		return r, fmt.Errorf("requirement %s: a region never touches its own habitat", q(s))
	}
	return r, nil
}

// Animal is one animal card. Its habitat, the border colour scoring uses, is its requirement's X.
type Animal struct {
	Name string
	Req  Requirement
}

// Objective is a Natural Habitat card: having at least Areas[i] areas of Habitat scores Points[i].
type Objective struct {
	Habitat Habitat
	Areas   []int
	Points  []int
}

// Score is the objective's points for a planet with n areas of its habitat.
func (o *Objective) Score(n int) int {
	p := 0
	for i, need := range o.Areas {
		if n >= need {
			p = o.Points[i]
		}
	}
	return p
}

// Data is a match's data set: tiles, animal deck, objective cards and the animal layout.
// It is immutable once loaded and shared by every state of the match.
type Data struct {
	Tiles      []Tile
	Animals    []Animal
	Objectives []Objective
	// Layout is the number of animal cards laid out for each of turns 3..12.
	Layout [TurnsPerGame - 2]int
	// runs is each tile's runs in each rotation, which put lays.
	runs [][5]tileRuns
	// hash identifies the data set in MarshalBinary.
	hash uint64
	// msg is the data set's shared protobuf messages.
	msg messages
}

// FirstAnimalTurn is the first turn with an origin-of-life phase.
const FirstAnimalTurn = 3

// StackSize is the number of tiles per stack; TileStacks the number of face-down stacks dealt.
const (
	StackSize  = 5
	TileStacks = 10
	TileCount  = StackSize * TileStacks
)

// MinAnimals is the number of animal cards a game lays out (20 in both layouts).
const MinAnimals = 20

//go:embed data/default.json
var defaultJSON []byte

// Default is the built-in data set (data/default.json).
var Default = mustLoad(defaultJSON)

func mustLoad(b []byte) *Data {
	d, err := ParseData(b)
	if err != nil {
		panic("planet: built-in data: " + err.Error())
	}
	return d
}

// dataFile is the JSON form of a data set. Every part is optional when loading another set:
// a missing part keeps the built-in one.
type dataFile struct {
	Tiles   []string `json:"tiles"`
	Animals []struct {
		Name        string `json:"name"`
		Requirement string `json:"requirement"`
	} `json:"animals"`
	Objectives []struct {
		Habitat string `json:"habitat"`
		Areas   []int  `json:"areas"`
		Points  []int  `json:"points"`
	} `json:"objectives"`
	Layout []int `json:"layout"`
}

// LoadData reads the "data" option: empty for the built-in set, else a data set as inline JSON
// of at most MaxDataBytes [rule: Where loaded data comes from]. It never reads a file: a data
// set named by a client is resolved by the server, from its operator's directory, into these
// bytes. Every fault wraps engine.ErrBadOption, names the tile, card or objective at fault,
// and quotes the client's text only as a short clipped excerpt.
func LoadData(opt string) (*Data, error) {
	if len(opt) > MaxDataBytes {
		return nil, fmt.Errorf("%w: %s: %d bytes, more than the %d a data set may have", engine.ErrBadOption, OptData, len(opt), MaxDataBytes)
	}
	opt = strings.TrimSpace(opt)
	if opt == "" {
		return Default, nil
	}
	if !strings.HasPrefix(opt, "{") {
		return nil, fmt.Errorf("%w: %s must be a data set as inline JSON (an object), not %q: the engine reads no files; "+
			"a server may resolve a data set's name from its data directory", engine.ErrBadOption, OptData, engine.Clip(opt, clipData))
	}
	d, err := parseData([]byte(opt), Default)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %s", engine.ErrBadOption, OptData, engine.Clip(err.Error(), clipError))
	}
	return d, nil
}

// How much client text an error quotes: one value, and a whole message.
const (
	clipData  = 40
	clipError = 240
)

// q quotes client text in an error, clipped.
func q(s string) string { return strconv.Quote(engine.Clip(s, clipData)) }

// ParseData reads a complete data set from JSON.
func ParseData(b []byte) (*Data, error) { return parseData(b, nil) }

// parseData reads a data set, taking the parts b leaves out from base (all are required when
// base is nil), and checks it [rule: Safety and data checks].
func parseData(b []byte, base *Data) (*Data, error) {
	var f dataFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("bad JSON: %s", engine.Clip(err.Error(), 2*clipData))
	}
	if dec.More() {
		return nil, fmt.Errorf("bad JSON: text after the data set")
	}
	d := &Data{}
	if base != nil {
		*d = *base
	}

	if f.Tiles != nil || base == nil {
		if len(f.Tiles) != TileCount {
			return nil, fmt.Errorf("the tile set has %d tiles, want exactly %d", len(f.Tiles), TileCount)
		}
		d.Tiles = make([]Tile, len(f.Tiles))
		for i, s := range f.Tiles {
			w := strings.Fields(s)
			if len(w) != 5 {
				return nil, fmt.Errorf("tile %d %s has %d areas, want 5", i, q(s), len(w))
			}
			for k, name := range w {
				h, ok := ParseHabitat(name)
				if !ok {
					return nil, fmt.Errorf("tile %d %s: unknown habitat %s", i, q(s), q(name))
				}
				d.Tiles[i][k] = h
			}
		}
		d.runs = make([][5]tileRuns, len(d.Tiles))
		for i, t := range d.Tiles {
			d.runs[i] = runsOf(t)
		}
	}

	if f.Animals != nil || base == nil {
		d.Animals = make([]Animal, len(f.Animals))
		for i, a := range f.Animals {
			if strings.TrimSpace(a.Name) == "" {
				return nil, fmt.Errorf("animal card %d has no name", i)
			}
			r, err := ParseRequirement(a.Requirement)
			if err != nil {
				return nil, fmt.Errorf("animal card %d (%s): %v", i, engine.Clip(a.Name, clipData), err)
			}
			d.Animals[i] = Animal{Name: a.Name, Req: r}
		}
	}

	if f.Objectives != nil || base == nil {
		d.Objectives = make([]Objective, len(f.Objectives))
		var have [Habitats + 1]bool
		for i, o := range f.Objectives {
			h, ok := ParseHabitat(o.Habitat)
			if !ok {
				return nil, fmt.Errorf("objective %d: unknown habitat %s", i, q(o.Habitat))
			}
			if have[h] {
				return nil, fmt.Errorf("objective %d: a second %s objective", i, h)
			}
			have[h] = true
			if len(o.Areas) == 0 || len(o.Areas) != len(o.Points) {
				return nil, fmt.Errorf("%s objective: %d area steps for %d point steps", h, len(o.Areas), len(o.Points))
			}
			for k := range o.Areas {
				if o.Areas[k] < 1 || o.Areas[k] > Areas || o.Points[k] < 1 {
					return nil, fmt.Errorf("%s objective: step %d (%d areas, %d points) out of range", h, k, o.Areas[k], o.Points[k])
				}
				if k > 0 && (o.Areas[k] <= o.Areas[k-1] || o.Points[k] <= o.Points[k-1]) {
					return nil, fmt.Errorf("%s objective: step %d is not above step %d: scales must increase", h, k, k-1)
				}
			}
			d.Objectives[i] = Objective{Habitat: h, Areas: append([]int(nil), o.Areas...), Points: append([]int(nil), o.Points...)}
		}
	}

	if f.Layout != nil || base == nil {
		if len(f.Layout) != len(d.Layout) {
			return nil, fmt.Errorf("the layout has %d columns, want %d (turns %d to %d)", len(f.Layout), len(d.Layout), FirstAnimalTurn, TurnsPerGame)
		}
		for i, n := range f.Layout {
			if n < 0 {
				return nil, fmt.Errorf("layout: turn %d has %d cards", i+FirstAnimalTurn, n)
			}
			d.Layout[i] = n
		}
	}

	if len(d.Animals) < max(MinAnimals, d.layoutCards()) {
		return nil, fmt.Errorf("the animal deck has %d cards, want at least %d", len(d.Animals), max(MinAnimals, d.layoutCards()))
	}
	d.hash = d.digest()
	d.msg = newMessages(d)
	return d, nil
}

func (d *Data) layoutCards() int {
	n := 0
	for _, k := range d.Layout {
		n += k
	}
	return n
}

// digest is a hash of the data set's content, so that MarshalBinary tells data sets apart.
func (d *Data) digest() uint64 {
	h := fnv.New64a()
	for _, t := range d.Tiles {
		h.Write([]byte(t.String() + ";"))
	}
	for _, a := range d.Animals {
		h.Write([]byte(a.Name + ":" + a.Req.String() + ";"))
	}
	for _, o := range d.Objectives {
		fmt.Fprint(h, o.Habitat, o.Areas, o.Points, ";")
	}
	fmt.Fprint(h, d.Layout)
	return h.Sum64()
}
