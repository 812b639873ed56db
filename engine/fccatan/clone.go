package fccatan

import "github.com/orrery/orrery/engine"

var _ engine.Copier = (*State)(nil)

// CloneInto makes dst a deep copy of s, as Clone does, reusing dst's buffers: its event log
// and offers are its own, so dst must come from New or CloneInto, not from Clone (whose event
// log its source shares). Any other dst is ignored and a new copy made.
func (s *State) CloneInto(dst engine.State) engine.State {
	d, ok := dst.(*State)
	if !ok || d == nil || d == s {
		d = &State{}
	}
	events, offers := d.events[:0], d.offers[:0]
	*d = *s
	d.events = append(events, s.events...)
	d.offers = append(offers, s.offers...)
	return d
}
