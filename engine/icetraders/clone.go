package icetraders

import "github.com/orrery/orrery/engine"

var _ engine.Copier = (*State)(nil)

// CloneInto makes dst a deep copy of s, as Clone does, reusing dst's buffers.
func (s *State) CloneInto(dst engine.State) engine.State {
	d, ok := dst.(*State)
	if !ok || d == nil || d == s {
		return s.clone()
	}
	d.CopyFrom(s)
	d.scratch = d.scratch[:0]
	return d
}
