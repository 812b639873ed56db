package planet

import "github.com/orrery/orrery/engine"

var _ engine.Copier = (*state)(nil)

// CloneInto makes dst a deep copy of s, as Clone does, reusing dst's buffers.
func (s *state) CloneInto(dst engine.State) engine.State {
	d, ok := dst.(*state)
	if !ok || d == nil || d == s {
		return s.Clone()
	}
	cards, events, ranks, scores := d.cards[:0], d.events[:0], d.result.Ranks[:0], d.result.Scores[:0]
	*d = *s
	d.cards = append(cards, s.cards...)
	d.events = append(events, s.events...)
	d.result.Ranks = append(ranks, s.result.Ranks...)
	d.result.Scores = append(scores, s.result.Scores...)
	if s.result.Ranks == nil {
		d.result.Ranks = nil
	}
	if s.result.Scores == nil {
		d.result.Scores = nil
	}
	return d
}
