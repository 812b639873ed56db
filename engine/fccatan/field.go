package fccatan

import (
	"embed"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"
)

// The maps are data: rules/full-contact-catan.md's field [decision] is maps/default.json.
//
//go:embed maps/*.json
var mapFiles embed.FS

// Fixed bounds of the state's arrays. A map may use fewer.
const (
	maxTeams   = 4
	maxAvatars = 4
	maxHoops   = 16
	maxPiles   = 16
	numRes     = 4
)

// Resource is a ball's colour, counted from 0 (wood, brick, ore, sheep).
type Resource int8

const (
	Wood Resource = iota
	Brick
	Ore
	Sheep
	noRes Resource = -1
)

var resNames = [numRes]string{"wood", "brick", "ore", "sheep"}

func (r Resource) String() string {
	if r >= 0 && r < numRes {
		return resNames[r]
	}
	return "none"
}

func parseResource(s string) (Resource, bool) {
	for i, n := range resNames {
		if n == s {
			return Resource(i), true
		}
	}
	return noRes, false
}

// Vec is a point in centimetres (or a velocity in cm/s).
type Vec struct{ X, Y int32 }

// Hoop is a hula hoop on the field.
type Hoop struct {
	Center Vec
	Radius int32
	Start  bool // along the bottom: holds a starting city
}

// PileSpot is where a pile of one resource stands.
type PileSpot struct {
	Resource Resource
	Pos      Vec
	Balls    int
}

// Field is a map: the field's size, its hoops and its piles.
type Field struct {
	Name             string
	Width, Height    int32 // centimetres; at most 32767 so targets fit an int16
	PileCapacity     int
	BallsPerResource int
	Hoops            []Hoop
	Piles            []PileSpot
	nearest          pileTable        // the piles that can be nearest from each grid cell
	fetches          [maxPiles]packed // a run to each pile to pick up
	runs             [maxHoops]packed // a run to each hoop's centre
	stacked          bool             // two piles stand on one spot, so two fetches can be one order
}

type fieldFile struct {
	Name             string `json:"name"`
	Width            int32  `json:"width_cm"`
	Height           int32  `json:"height_cm"`
	PileCapacity     int    `json:"pile_capacity"`
	BallsPerResource int    `json:"balls_per_resource"`
	Hoops            []struct {
		X, Y, Radius int32
		Start        bool
	} `json:"hoops"`
	Piles []struct {
		Resource string
		X, Y     int32
		Balls    int
	} `json:"piles"`
}

// fields holds the embedded maps by name, loaded once at start-up.
var fields = loadFields()

func loadFields() map[string]*Field {
	out := map[string]*Field{}
	entries, err := mapFiles.ReadDir("maps")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		b, err := mapFiles.ReadFile("maps/" + e.Name())
		if err != nil {
			panic(err)
		}
		f, err := parseField(b)
		if err != nil {
			panic(fmt.Sprintf("fccatan: map %s: %v", e.Name(), err)) // embedded data: a build error
		}
		out[f.Name] = f
	}
	return out
}

func parseField(b []byte) (*Field, error) {
	var ff fieldFile
	if err := json.Unmarshal(b, &ff); err != nil {
		return nil, err
	}
	f := &Field{Name: ff.Name, Width: ff.Width, Height: ff.Height, PileCapacity: ff.PileCapacity, BallsPerResource: ff.BallsPerResource}
	if f.Width <= 0 || f.Height <= 0 || f.Width > 32767 || f.Height > 32767 {
		return nil, fmt.Errorf("field %dx%d cm does not fit 1..32767", f.Width, f.Height)
	}
	starts := 0
	for _, h := range ff.Hoops {
		f.Hoops = append(f.Hoops, Hoop{Center: Vec{h.X, h.Y}, Radius: h.Radius, Start: h.Start})
		if h.Start {
			starts++
		}
	}
	if len(f.Hoops) > maxHoops || starts < maxTeams {
		return nil, fmt.Errorf("%d hoops (%d start hoops): want at most %d and at least %d start hoops", len(f.Hoops), starts, maxHoops, maxTeams)
	}
	var total [numRes]int
	for _, p := range ff.Piles {
		r, ok := parseResource(p.Resource)
		if !ok {
			return nil, fmt.Errorf("unknown resource %q", p.Resource)
		}
		if p.Balls < 0 || p.Balls > f.PileCapacity {
			return nil, fmt.Errorf("pile of %d balls over capacity %d", p.Balls, f.PileCapacity)
		}
		f.Piles = append(f.Piles, PileSpot{Resource: r, Pos: Vec{p.X, p.Y}, Balls: p.Balls})
		total[r] += p.Balls
	}
	if len(f.Piles) > maxPiles {
		return nil, fmt.Errorf("%d piles, want at most %d", len(f.Piles), maxPiles)
	}
	for r, n := range total {
		if n != f.BallsPerResource {
			return nil, fmt.Errorf("%s: %d balls in piles, want %d", Resource(r), n, f.BallsPerResource)
		}
	}
	f.nearest = newPileTable(f)
	for k, p := range f.Piles {
		f.fetches[k] = packIntent(to(p.Pos).PickUp())
	}
	for h, hp := range f.Hoops {
		f.runs[h] = packIntent(to(hp.Center))
	}
	for k, p := range f.Piles {
		for _, q := range f.Piles[:k] {
			f.stacked = f.stacked || p.Pos == q.Pos
		}
	}
	return f, nil
}

// DefaultField is the default map.
func DefaultField() *Field { return fields["default"] }

// FieldByName is the embedded map called name (an observation's rules.map), or nil.
func FieldByName(name string) *Field { return fields[name] }

func fieldNames() string {
	var names []string
	for n := range fields {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// isqrt is the integer square root, floor(sqrt(n)), for n >= 0. Below 2^50, which holds every
// distance on a field, it is the correctly rounded float square root truncated: with k the
// floor, k < 2^25, sqrt(n) is at least k (a float) and more than 1/(2(k+1)) >= 2^-26 below k+1,
// farther than the half unit in the last place (at most 2^-29) a rounding moves it, so the
// truncation is k. Up to 2^52 the float root is within one of it and two checks make it exact:
// every running player takes one a tick, and Newton's loop of 64-bit divisions was slower.
func isqrt(n int64) int64 {
	if uint64(n) < 1<<50 { // and n >= 0
		return int64(math.Sqrt(float64(n)))
	}
	return isqrtLarge(n)
}

func isqrtLarge(n int64) int64 {
	if n <= 0 {
		return 0
	}
	if n < 1<<52 {
		x := int64(math.Sqrt(float64(n)))
		for x*x > n {
			x--
		}
		for (x+1)*(x+1) <= n {
			x++
		}
		return x
	}
	x := int64(1) << ((bits.Len64(uint64(n)) + 1) / 2)
	for {
		y := (x + n/x) / 2
		if y >= x {
			return x
		}
		x = y
	}
}

// dist2 is the squared distance between two points, in cm².
func dist2(a, b Vec) int64 {
	dx, dy := int64(a.X-b.X), int64(a.Y-b.Y)
	return dx*dx + dy*dy
}

// within reports whether a and b are at most r apart.
func within(a, b Vec, r int32) bool { return dist2(a, b) <= int64(r)*int64(r) }
