package icetraders

// Color is a piece's color, and so its power.
type Color uint8

// The four colors of an Icehouse set, in the order the engine lists them.
const (
	Red    Color = iota // Warriors: attack
	Yellow              // Navigators: move
	Green               // Colonists: grow or add
	Blue                // IceTraders: trade
	numColors
)

var colorNames = [numColors]string{"red", "yellow", "green", "blue"}

func (c Color) String() string {
	if c < numColors {
		return colorNames[c]
	}
	return "?"
}

// Size is a piece's size in pips: Small 1, Medium 2, Large 3. Size 0 is "no piece".
type Size uint8

// The three sizes.
const (
	Small  Size = 1
	Medium Size = 2
	Large  Size = 3
)

var sizeNames = [4]string{"none", "small", "medium", "large"}

func (z Size) String() string {
	if z <= Large {
		return sizeNames[z]
	}
	return "?"
}

// Piece is one pyramid: a color and a size. The zero Piece (size 0) is "none".
type Piece struct {
	Color Color
	Size  Size
}

// numKinds is the number of distinct pieces: 4 colors x 3 sizes.
const numKinds = 12

// kind indexes the stash: color-major, small first.
func (p Piece) kind() int { return int(p.Color)*3 + int(p.Size) - 1 }

func pieceOfKind(k int) Piece { return Piece{Color(k / 3), Size(k%3 + 1)} }

// valid reports whether p is a real piece.
func (p Piece) valid() bool { return p.Color < numColors && p.Size >= Small && p.Size <= Large }

func (p Piece) String() string {
	if p.valid() {
		return pieceNames[p.kind()] // an action's notation names pieces on every step
	}
	return p.Color.String() + " " + p.Size.String()
}

var pieceNames = func() (t [numKinds]string) {
	for k := range t {
		p := pieceOfKind(k)
		t[k] = p.Color.String() + " " + p.Size.String()
	}
	return t
}()

// Connected reports whether systems with these markers are connected: the same size or the
// same color, but not both (the seed's "Two systems are said to be connected").
func Connected(a, b Piece) bool { return (a.Size == b.Size) != (a.Color == b.Color) }

// Alignment is a player's side. Unknown is "not chosen" in the state and "hidden" in a view.
type Alignment uint8

// The alignments.
const (
	Unknown Alignment = iota
	Good
	Evil
)

func (a Alignment) String() string {
	switch a {
	case Good:
		return "good"
	case Evil:
		return "evil"
	}
	return "unknown"
}
