package engine

// Copier is implemented by states that copy themselves into another state of their game,
// reusing its memory: a search that restarts from one root many thousands of times copies it
// into one scratch state instead of allocating a Clone each time.
type Copier interface {
	// CloneInto makes dst a deep copy of the receiver, equal to Clone byte for byte and
	// sharing nothing mutable with it, and returns dst. dst is a state of the same game from
	// New or an earlier CloneInto (a Clone may share its event log with its source, which
	// CloneInto would then overwrite). A dst that is nil or of another game is ignored and a
	// new copy returned.
	CloneInto(dst State) State
}

// Evaluator is implemented by states that estimate, before the end, how well a seat stands,
// so that a search can cut its playouts short and score the position reached. It reads the
// whole state, hidden information included: a search calls it only on states it sampled
// itself, never on a match's true state.
type Evaluator interface {
	// Evaluate is seat's standing in [0, 1]: about its chance of finishing first; once the
	// game is over, 1 for a seat ranked first and 0 for any other.
	Evaluate(seat Seat) float64
}

// CloneInto copies src into dst through Copier when src implements it, and clones otherwise.
func CloneInto(dst, src State) State {
	if c, ok := src.(Copier); ok {
		return c.CloneInto(dst)
	}
	return src.Clone()
}
