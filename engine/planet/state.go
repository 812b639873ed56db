package planet

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"unsafe"

	"github.com/orrery/orrery/engine"
)

const maxSeats = 4

// state is a match in progress. Everything but the card list and the event log lives in fixed
// arrays, so Clone is one struct copy and two slice copies.
type state struct {
	d     *Data
	opt   options
	seats int8
	rng   rand.PCG

	turn  int8 // 1..12
	first int8 // the seat holding the first-player token
	picks int8 // seats that placed a tile this turn

	// stacks[i] is stack i+1. A revealed stack keeps its tiles, for the TurnStarted event.
	stacks   [TurnsPerGame][StackSize]int16
	stackN   [TurnsPerGame]int8
	display  [StackSize]int16 // the revealed stack's tiles still to take, in display order
	displayN int8
	box      [TileCount]int16 // leftovers put back in the box
	boxN     int8

	// objDeal is the shuffled objective cards: seat i holds objDeal[i]; the rest are unused.
	objDeal [Habitats]int8
	objN    int8

	// cards are the laid-out animal cards in resolution order: column t is the cards with
	// turn t in slice order, and a carried card moves to the end of the slice.
	cards []card
	// settled is how many cards at the front are won or back in the box: a column's judging
	// starts after them (a card only ever leaves the list's open part for its end). The cards
	// before laid are in column order, as laid out, and the carried ones follow: judging leaves
	// the laid-out part at its first later column. laid is 0 where the order is not known.
	settled, laid int8
	won           int16 // cards won so far, to order each planet's animals
	// faceDown is how many cards are face down, so that a game without mystery animals
	// skips looking for them each turn.
	faceDown int8

	over   bool
	result engine.Result
	events []event

	// known is, in a search's sample, the turn the searching seat saw: later turns' displays
	// are the sample's draw. 0 in a match.
	known int8

	// planets come last: they hold no pointers, and the garbage collector reads a state only
	// as far as its last pointer.
	planets [maxSeats]core
}

// core is one seat's planet.
type core struct {
	tile [Faces]int16 // tile id on each face, -1 where free
	rot  [Faces]int8
	// free is the faces without a tile in order, one in each 4 bits from the lowest, the
	// first Faces-placed of them: Legal lists them for every pick, and put keeps them.
	free    uint64
	surface Surface
	// sets is the surface's areas by habitat, near the areas next to each habitat's areas;
	// put keeps both for the origin of life.
	sets, near habitatSets
	// regions is each habitat's regions of two areas or more (index habitat-1), which put
	// keeps, so that judging a card reads them instead of finding them.
	regions   [Habitats]regionList
	objective int8 // index into Data.Objectives; -1 in beginners' games
	placed    int8
}

// card is a laid-out animal card.
type card struct {
	id       int16
	turn     int8 // the column it waits in
	faceDown bool // a mystery card not yet revealed
	owner    int8 // the seat that won it, or -1
	returned bool // back in the box, unwon
	seq      int16
}

// clear empties the planet.
func (p *core) clear() {
	for f := range p.tile {
		p.tile[f] = -1
	}
	// Field by field: the regions past each list's end are never read, and are most of a core.
	p.rot, p.free, p.surface = [Faces]int8{}, allFaces, Surface{}
	p.sets, p.near = habitatSets{None: 1<<Areas - 1}, habitatSets{}
	for h := range p.regions {
		p.regions[h].n, p.regions[h].max = 0, 0
	}
	p.objective, p.placed = 0, 0
}

// allFaces is every face in order, 4 bits each: core.free before the first tile.
const allFaces = 0xba9876543210

// firstAreas has the bit of each face's area 0: in a set of areas, one bit per face.
const firstAreas = 0x084210842108421

func (c *card) open() bool { return c.owner < 0 && !c.returned }

var _ engine.State = (*state)(nil)

func (s *state) Seats() int { return int(s.seats) }

// toAct is the seat that picks next: clockwise from the first player [rule: A turn, add a continent].
func (s *state) toAct() engine.Seat {
	// (first + picks) mod seats, without a division: first < seats and picks <= seats.
	at := s.first + s.picks
	if at >= s.seats {
		at -= s.seats
	}
	return engine.Seat(at)
}

func (s *state) ToAct(buf []engine.Seat) []engine.Seat {
	if s.over {
		return buf
	}
	return append(buf, s.toAct())
}

func (s *state) Terminal() bool        { return s.over }
func (s *state) Result() engine.Result { return s.result }

// Legal lists every (tile, face, rotation) for the seat to act: displayed tiles in display
// order, its free faces in order, rotations 0-4. Legal is most of a playout: a placement on a
// face is one inline copy of a block of 5 from a table, written through a pointer made at an
// offset into buf (a slice walk spilled its bounds to the stack).
func (s *state) Legal(seat engine.Seat, buf []engine.Action) []engine.Action {
	if s.over || seat != s.toAct() {
		return buf
	}
	p := &s.planets[seat]
	nf := Faces - int(p.placed)
	n := len(buf)
	size := int(s.displayN) * nf * 5
	if size == 0 {
		return buf
	}
	buf = slices.Grow(buf, size)[:n+size]
	const block = unsafe.Sizeof([5]engine.Action{})
	dst, at := unsafe.Pointer(&buf[n]), uintptr(0) // a pointer is made only to a block in buf
	for _, tile := range s.display[:s.displayN] {
		t := &placeByTile[tile]
		x, k := p.free, nf
		for ; k >= 4; k -= 4 { // four faces a turn: a turn's own work was a third of a copy
			*(*[5]engine.Action)(unsafe.Add(dst, at)) = t[x&15]
			*(*[5]engine.Action)(unsafe.Add(dst, at+block)) = t[x>>4&15]
			*(*[5]engine.Action)(unsafe.Add(dst, at+2*block)) = t[x>>8&15]
			*(*[5]engine.Action)(unsafe.Add(dst, at+3*block)) = t[x>>12&15]
			at += 4 * block
			x >>= 16
		}
		if k >= 2 {
			*(*[5]engine.Action)(unsafe.Add(dst, at)) = t[x&15]
			*(*[5]engine.Action)(unsafe.Add(dst, at+block)) = t[x>>4&15]
			at += 2 * block
			x >>= 8
			k -= 2
		}
		if k > 0 {
			*(*[5]engine.Action)(unsafe.Add(dst, at)) = t[x&15]
			at += block
		}
	}
	return buf
}

// placeByTile is every placement of each tile, face by face, rotations 0-4. Its 4 faces past
// the last are never listed: they let placements index it by 4 bits of the free list with
// no bounds check.
var placeByTile = func() (t [TileCount][16][5]engine.Action) {
	for tile := range t {
		for f := 0; f < Faces; f++ {
			for r := range t[tile][f] {
				t[tile][f][r] = PlaceAction(tile, f, r)
			}
		}
	}
	return t
}()

// Apply validates a in full, then plays it.
func (s *state) Apply(seat engine.Seat, a engine.Action) error {
	if s.over {
		return fmt.Errorf("%w: the game has ended", engine.ErrGameOver)
	}
	if seat != s.toAct() {
		return fmt.Errorf("%w: seat %d is to act", engine.ErrNotYourTurn, s.toAct())
	}
	// A legal placement is told at once; anything else goes to check, which says what is wrong.
	tile, face, rot := a.Arg[0], a.Arg[1], a.Arg[2]
	if slot := slices.Index(s.display[:s.displayN], tile); slot >= 0 && a.Kind == kindPlace &&
		[4]int16(a.Arg[3:]) == [4]int16{} && [4]int16(a.Arg[7:]) == [4]int16{} && [4]int16(a.Arg[11:]) == [4]int16{} &&
		uint16(face) < Faces && uint16(rot) < 5 && s.planets[seat].tile[face] < 0 {
		s.place(seat, slot, tile, int(face), int(rot))
		return nil
	}
	slot, err := s.check(seat, a)
	if err != nil {
		return err
	}
	s.place(seat, slot, tile, int(face), int(rot))
	return nil
}

// check validates a placement and returns the display slot of its tile.
func (s *state) check(seat engine.Seat, a engine.Action) (int, error) {
	if a.Kind != kindPlace {
		return 0, fmt.Errorf("%w: unknown action kind %d", engine.ErrIllegalAction, a.Kind)
	}
	// Three words at a time: a comparison of all 12 at once calls memequal.
	if [4]int16(a.Arg[3:]) != [4]int16{} || [4]int16(a.Arg[7:]) != [4]int16{} || [4]int16(a.Arg[11:]) != [4]int16{} {
		return 0, fmt.Errorf("%w: a placement has three arguments", engine.ErrIllegalAction)
	}
	tile, face, rot := int(a.Arg[0]), int(a.Arg[1]), int(a.Arg[2])
	if tile < 0 || tile >= len(s.d.Tiles) {
		return 0, fmt.Errorf("%w: there is no tile %d", engine.ErrIllegalAction, tile)
	}
	slot := slices.Index(s.display[:s.displayN], int16(tile))
	if slot < 0 {
		return 0, fmt.Errorf("%w: tile %d is not on display", engine.ErrIllegalAction, tile)
	}
	if face < 0 || face >= Faces {
		return 0, fmt.Errorf("%w: there is no face %d", engine.ErrIllegalAction, face)
	}
	if s.planets[seat].tile[face] >= 0 {
		return 0, fmt.Errorf("%w: face %d of your planet already has a tile", engine.ErrIllegalAction, face)
	}
	if rot < 0 || rot >= 5 {
		return 0, fmt.Errorf("%w: rotation %d is not 0-4", engine.ErrIllegalAction, rot)
	}
	return slot, nil
}

// place puts the tile on the seat's core; once every seat has placed, the turn ends.
func (s *state) place(seat engine.Seat, slot int, tile int16, face, rot int) {
	s.planets[seat].put(face, tile, s.d, rot)
	d := s.display[:s.displayN]
	for i := slot + 1; i < len(d); i++ { // a copy here calls memmove for at most 4 tiles
		d[i-1] = d[i]
	}
	s.displayN--
	s.log(event{kind: evPlace, seat: int8(seat), a: tile, x: int8(face), b: int16(rot)})
	s.picks++
	if s.picks == s.seats {
		s.endTurn()
	}
}

// startTurn reveals the turn's stack [rule: A turn, add a continent].
func (s *state) startTurn() {
	i := s.turn - 1
	s.displayN = s.stackN[i]
	copy(s.display[:], s.stacks[i][:s.displayN])
	s.picks = 0
	s.log(event{kind: evTurn, turn: s.turn, seat: s.first})
}

// endTurn stores the leftovers, lets life emerge, passes the token and starts the next turn.
func (s *state) endTurn() {
	t := s.turn
	// Leftovers go face down onto stack 11 until it holds 5, then 12, then the box, in
	// display order [rule: A turn, leftovers].
	for _, tile := range s.display[:s.displayN] {
		dest := int8(0)
		switch {
		case t < 11 && s.stackN[10] < StackSize:
			dest = 11
		case t < 12 && s.stackN[11] < StackSize:
			dest = 12
		}
		if dest == 0 {
			s.box[s.boxN] = tile
			s.boxN++
		} else {
			s.stacks[dest-1][s.stackN[dest-1]] = tile
			s.stackN[dest-1]++
		}
		s.log(event{kind: evLeftover, a: tile, x: dest})
	}
	s.displayN = 0
	if t >= FirstAnimalTurn {
		s.originOfLife(t)
	}
	if t == s.opt.lastTurn {
		s.finish()
		return
	}
	if s.opt.rotate {
		s.first = (s.first + 1) % s.seats
		s.log(event{kind: evFirst, seat: s.first})
	}
	s.revealMystery(t)
	s.turn++
	s.startTurn()
}

// revealMystery turns up the face-down animals due at the end of turn t: the card for turn k
// at the end of turn k-ahead, those due at or before setup (t = 0) at setup [rule: Variants, 2].
func (s *state) revealMystery(t int8) {
	if s.faceDown == 0 {
		return
	}
	for i := range s.cards {
		c := &s.cards[i]
		if c.faceDown && c.turn-s.opt.ahead <= t {
			c.faceDown = false
			s.faceDown--
			s.log(event{kind: evMystery, turn: c.turn, a: c.id})
		}
	}
}

// originOfLife awards this turn's column [rule: The origin of life].
func (s *state) originOfLife(t int8) {
	// Each card is judged on each planet's kept regions: its value and how many meet it.
	last := t == s.opt.lastTurn
	cards := s.cards // judging moves cards within the slice, never the slice
	laid := int(s.laid)
	for i := int(s.settled); i < len(cards); i++ {
		c := &cards[i]
		if c.turn != t || !c.open() {
			if c.turn > t && i < laid {
				i = laid - 1 // the laid-out cards left wait for later columns
			}
			continue
		}
		req := s.d.Animals[c.id].Req
		var value, qualifying [maxSeats]int
		best, nbest, who := req.judge(s.planets[:s.seats], &value, &qualifying)
		switch {
		case best > 0 && nbest == 1: // a strict best wins
			s.win(c, who, best, 0)
		case !last: // a tie or nobody qualifying: the card waits at the end of the next column
			c.turn = t + 1
			moved := *c
			if i < laid {
				laid--
			}
			copy(cards[i:], cards[i+1:])
			cards[len(cards)-1] = moved
			s.log(event{kind: evCarried, turn: t, a: moved.id})
			i-- // the next card is now in slot i
		case best == 0 || req.Kind == MostRegions: // the last turn: nobody, or a tied "most regions"
			s.giveBack(c, t)
		default:
			s.lastTurnTieBreak(c, t, best, &value, &qualifying)
		}
	}
	s.laid = int8(laid)
	for int(s.settled) < len(cards) && !cards[s.settled].open() {
		s.settled++
	}
}

// lastTurnTieBreak settles a tied card on the last turn: among the tied seats, the one seat
// that meets the requirement a second time elsewhere wins; if several do, a third time; else
// the card goes back to the box [rule: The origin of life, turn 12]. qualifying is each
// seat's number of regions meeting the requirement.
func (s *state) lastTurnTieBreak(c *card, t int8, best int, value, qualifying *[maxSeats]int) {
	var tied [maxSeats]bool
	for seat := 0; seat < int(s.seats); seat++ {
		tied[seat] = value[seat] == best
	}
	for times := 2; times <= 3; times++ {
		n, who := 0, -1
		for seat := 0; seat < int(s.seats); seat++ {
			if tied[seat] && qualifying[seat] >= times {
				n, who = n+1, seat
			} else {
				tied[seat] = false
			}
		}
		if n == 1 {
			s.win(c, who, best, times)
			return
		}
		if n == 0 {
			break
		}
	}
	s.giveBack(c, t)
}

func (s *state) win(c *card, seat, value, tieBreak int) {
	c.owner = int8(seat)
	c.seq = s.won
	s.won++
	s.log(event{kind: evWon, turn: c.turn, a: c.id, seat: int8(seat), b: int16(value), x: int8(tieBreak)})
}

func (s *state) giveBack(c *card, t int8) {
	c.returned = true
	s.log(event{kind: evReturned, turn: t, a: c.id})
}

// Score is one seat's final score [rule: End and scoring].
type Score struct {
	Objective int // the objective's points (0 in beginners' games)
	Animals   int // the animal cards' points
	Cards     int // the number of animal cards, the first tie-break
}

// Total is the seat's points.
func (sc Score) Total() int { return sc.Objective + sc.Animals }

// scores is each seat's score: the objective's scale, then each animal 1 point if its habitat
// is the objective's, else 2; in beginners' games every animal scores 1 [rule: End and
// scoring]. The cards are read once for all seats.
func (s *state) scores() (all [maxSeats]Score) {
	var objective [maxSeats]Habitat
	for seat := range s.planets[:s.seats] {
		if p := &s.planets[seat]; p.objective >= 0 {
			o := &s.d.Objectives[p.objective]
			objective[seat] = o.Habitat
			all[seat].Objective = o.Score(bits.OnesCount64(p.sets[o.Habitat&7])) // the kept sets count the areas
		}
	}
	for i := range s.cards {
		c := &s.cards[i]
		if c.owner < 0 {
			continue
		}
		sc := &all[c.owner&(maxSeats-1)]
		sc.Cards++
		if s.opt.beginners || s.d.Animals[c.id].Req.X == objective[c.owner&(maxSeats-1)] {
			sc.Animals++
		} else {
			sc.Animals += 2
		}
	}
	return all
}

// finish scores the game: most points wins, ties go to the most animal cards, then share.
func (s *state) finish() {
	s.over = true
	n := int(s.seats)
	all := s.scores()
	scores := all[:n]
	// The ranks and the scores in one allocation.
	room := new(struct {
		ranks  [maxSeats]int
		scores [maxSeats]float64
	})
	res := engine.Result{Ranks: room.ranks[:n:n], Scores: room.scores[:n:n], Reason: engine.EndNormal}
	for seat := range scores {
		res.Scores[seat] = float64(scores[seat].Total())
	}
	for i := range scores {
		res.Ranks[i] = 1
		for j := range scores {
			if scores[j].Total() > scores[i].Total() || (scores[j].Total() == scores[i].Total() && scores[j].Cards > scores[i].Cards) {
				res.Ranks[i]++
			}
		}
	}
	if s.opt.lastTurn < TurnsPerGame {
		res.Reason = engine.EndCap
	}
	res.Detail = resultSentence(scores, res)
	s.result = res
	s.log(event{kind: evEnd})
}

// resultSentence is "seat 2 wins with 31 points and 7 animals", or "seats [0 2] share the win
// with ... each"; written with strconv, since a playout ends with it.
func resultSentence(scores []Score, res engine.Result) string {
	b := make([]byte, 0, 96)
	var w Score
	nwin := 0
	for seat, rank := range res.Ranks {
		if rank == 1 {
			w = scores[seat]
			nwin++
		}
	}
	if nwin == 1 {
		b = append(b, "seat "...)
	} else {
		b = append(b, "seats ["...)
	}
	k := 0
	for seat, rank := range res.Ranks {
		if rank != 1 {
			continue
		}
		if k > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(seat), 10)
		k++
	}
	if nwin == 1 {
		b = append(b, " wins with "...)
	} else {
		b = append(b, "] share the win with "...)
	}
	b = strconv.AppendInt(b, int64(w.Total()), 10)
	b = append(b, " points and "...)
	b = strconv.AppendInt(b, int64(w.Cards), 10)
	b = append(b, " animals"...)
	if nwin > 1 {
		b = append(b, " each"...)
	}
	if res.Reason == engine.EndCap {
		b = append(b, " (the safety cap ended the game)"...)
	}
	return string(b)
}

// Clone is a deep copy: the arrays copy with the struct, the slices are copied here.
func (s *state) Clone() engine.State {
	c := *s
	c.cards = append([]card(nil), s.cards...)
	c.events = append(make([]event, 0, cap(s.events)), s.events...)
	c.result.Ranks = append([]int(nil), s.result.Ranks...)
	c.result.Scores = append([]float64(nil), s.result.Scores...)
	return &c
}
