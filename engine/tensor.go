package engine

import (
	"fmt"

	"google.golang.org/protobuf/proto"
)

// Tensorizer is implemented by games that a neural network can play: for a configured match
// they give a fixed observation tensor and a fixed space of action ids, after OpenSpiel's
// ObservationTensorShape and NumDistinctActions.
type Tensorizer interface {
	// Tensors is the layout of the matches cfg configures (its seats and options; the seed is
	// not read). It fails as New would on a bad cfg.
	Tensors(cfg Config) (Tensors, error)
}

// Tensors maps one configured game's observations to float32 tensors and its actions to ids.
// Everything it reads is an observation (what Observe(seat) returned) and the seat's own
// legal list, so a tensor can hold nothing the seat may not know. A Tensors is safe for
// concurrent use: it holds only the layout.
//
// The action space has one or more heads (a multi-discrete space, as Gymnasium's
// MultiDiscrete): a game with one decision at a time has one head of NumDistinctActions ids;
// Full-Contact Catan adds one head per avatar. An action is named by one id per head.
type Tensors interface {
	// ObservationShape is the shape of every observation tensor of the match, row-major. It
	// depends on the configuration only, never on the state. Callers must not change it.
	ObservationShape() []int
	// Heads is the number of distinct ids of each head of the action space (read only too).
	Heads() []int
	// Encode writes the tensor of obs, one seat's Observe, into dst, whose length is the
	// product of ObservationShape. It writes every element, and allocates nothing.
	Encode(obs proto.Message, dst []float32) error
	// ActionIDs writes the ids of each of actions, actions of the seat whose view obs is (its
	// legal list, usually), one per head, into ids (len(Heads()) per action, in order). It
	// reports false if one has no id (an open-ended action outside the listed family). It
	// takes a list, not one action, because an id may need slots worked out from obs once.
	ActionIDs(obs proto.Message, actions []Action, ids []int32) bool
	// Action is the action that ids name, built from the seat's legal list; false if ids name
	// none of its legal actions.
	Action(obs proto.Message, legal []Action, ids []int32) (Action, bool)
}

// TensorsOf is the tensor layout of game's matches under cfg; ok is false for a game that
// has none.
func TensorsOf(game string, cfg Config) (t Tensors, ok bool, err error) {
	g, err := Lookup(game)
	if err != nil {
		return nil, false, err
	}
	tz, ok := g.(Tensorizer)
	if !ok {
		return nil, false, nil
	}
	t, err = tz.Tensors(cfg)
	return t, err == nil, err
}

// ObservationSize is the number of float32 elements of t's observation tensor.
func ObservationSize(t Tensors) int {
	n := 1
	for _, d := range t.ObservationShape() {
		n *= d
	}
	return n
}

// NumDistinctActions is the size of t's legal mask: the ids of every head, one after another.
func NumDistinctActions(t Tensors) int {
	n := 0
	for _, h := range t.Heads() {
		n += h
	}
	return n
}

// LegalMask sets mask (NumDistinctActions long) to the ids of legal, the legal actions of the
// seat whose view obs is: mask[offset of head h + id] is true for each head's id of a legal
// action. It fails on a legal action that has no id, which is a game's bug.
// ids is a buffer of len(legal)*len(Heads()) for the legal actions' ids, which it holds after.
func LegalMask(t Tensors, obs proto.Message, legal []Action, mask []bool, ids []int32) error {
	clear(mask)
	heads := t.Heads()
	if !t.ActionIDs(obs, legal, ids) {
		return fmt.Errorf("engine: a legal action has no id")
	}
	for i := range legal {
		off := 0
		for h, n := range heads {
			id := ids[i*len(heads)+h]
			if id < 0 || int(id) >= n {
				return fmt.Errorf("engine: id %d of head %d out of 0..%d", id, h, n-1)
			}
			mask[off+int(id)] = true
			off += n
		}
	}
	return nil
}

// FindAction is Action for a one-head space: the legal action whose id is ids[0]. Games whose
// ids are built from the action alone use it, so they decode nothing twice.
func FindAction(t Tensors, obs proto.Message, legal []Action, ids []int32) (Action, bool) {
	var room [256]int32 // the ids of the whole list at once: a game may work out slots per call
	got := room[:0]
	if len(legal) > len(room) {
		got = make([]int32, len(legal))
	}
	got = got[:len(legal)]
	if !t.ActionIDs(obs, legal, got) {
		return Action{}, false
	}
	for i, id := range got {
		if id == ids[0] {
			return legal[i], true
		}
	}
	return Action{}, false
}

// Slice is one named part of an observation tensor: Shape elements from Offset, row-major.
type Slice struct {
	Name   string
	Shape  []int
	Offset int
}

// Size is the number of elements of the slice.
func (s Slice) Size() int {
	n := 1
	for _, d := range s.Shape {
		n *= d
	}
	return n
}

// Layout lays out an observation tensor as named slices, one after another: the games build
// their offsets with it, and docs/training.md lists the same names.
type Layout struct {
	Slices []Slice
	size   int
}

// Add appends a slice of the given shape and returns its offset.
func (l *Layout) Add(name string, shape ...int) int {
	off := l.size
	l.Slices = append(l.Slices, Slice{Name: name, Shape: shape, Offset: off})
	l.size += Slice{Shape: shape}.Size()
	return off
}

// Size is the number of elements laid out so far.
func (l *Layout) Size() int { return l.size }

// Described is implemented by Tensors that name the slices of their observation tensor.
type Described interface {
	ObservationLayout() []Slice
}

// OneHot sets dst[off+i] when 0 <= i < n: the one-hot code of i among n values, over zeros.
func OneHot(dst []float32, off, n, i int) {
	if i >= 0 && i < n {
		dst[off+i] = 1
	}
}

// Bool is 1 for true, 0 for false.
func Bool(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

// RankRewards writes each seat's reward for a game ranked ranks (1 best, ties sharing a
// rank): place p of n is worth 1 - 2(p-1)/(n-1), from +1 for first to -1 for last, and seats
// tied on a rank share the mean of the places they cover, so the rewards sum to zero.
func RankRewards(ranks []int, out []float32) {
	n := len(ranks)
	if n < 2 {
		clear(out)
		return
	}
	for s, r := range ranks {
		tied := 0
		for _, q := range ranks {
			if q == r {
				tied++
			}
		}
		mean := float64(r) + float64(tied-1)/2 // places r .. r+tied-1
		out[s] = float32(1 - 2*(mean-1)/float64(n-1))
	}
}
