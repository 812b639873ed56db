package pantropia

import "github.com/orrery/orrery/engine"

var _ engine.Copier = (*state)(nil)

// CloneInto makes dst a deep copy of s, as Clone does, reusing dst's buffers. Unlike a
// Clone, the copy owns every chunk of its event log, so that the next CloneInto into it can
// rewrite them in place: dst must come from New or CloneInto, not from Clone (whose chunks
// its source shares). Any other dst is ignored and a new copy made.
func (s *state) CloneInto(dst engine.State) engine.State {
	d, ok := dst.(*state)
	if !ok || d == nil || d == s {
		d = &state{}
	}
	log := d.events
	*d = *s
	d.events = s.events.copyInto(log)
	return d
}

// copyInto makes dst a copy of l in dst's own chunks, allocating only the chunks dst lacks,
// and ends it with room for the next event.
func (l *eventLog) copyInto(dst eventLog) eventLog {
	chunks := dst.chunks[:cap(dst.chunks)]
	for k := range l.chunks {
		if k < len(chunks) && cap(chunks[k]) == eventChunk {
			chunks[k] = append(chunks[k][:0], l.chunks[k]...)
			continue
		}
		c := append(make([]event, 0, eventChunk), l.chunks[k]...)
		if k < len(chunks) {
			chunks[k] = c
		} else {
			chunks = append(chunks, c)
		}
	}
	n := len(l.chunks)
	if n == 0 || len(l.chunks[n-1]) == eventChunk {
		// An empty last chunk of dst's own: the next event goes there, not into a new one.
		if n < len(chunks) && cap(chunks[n]) == eventChunk {
			chunks[n] = chunks[n][:0]
		} else if n < len(chunks) {
			chunks[n] = make([]event, 0, eventChunk)
		} else {
			chunks = append(chunks, make([]event, 0, eventChunk))
		}
		n++
	}
	return eventLog{chunks: chunks[:n], n: l.n}
}
