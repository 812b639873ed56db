package match

import "testing"

// The sender that went idle last is handed the next seat, so that the senders a load keeps
// busy are reused and the others, left at the bottom, end when their wait runs out.
func TestIdleSenders_TheLastIdleIsHandedTheNextSeat(t *testing.T) {
	var p idleSenders
	a, b, c := make(chan *Seat, 1), make(chan *Seat, 1), make(chan *Seat, 1)
	p.push(a)
	p.push(b)
	p.push(c)
	if got := p.pop(); got != c {
		t.Fatalf("pop gave the sender pushed %s, want the last", name(got, a, b, c))
	}
	// a's wait runs out: it is taken off and ends.
	if !p.remove(a) {
		t.Fatal("remove(a) = false for a sender on the stack")
	}
	if got := p.pop(); got != b {
		t.Fatalf("pop gave %s, want b", name(got, a, b, c))
	}
	// c's wait runs out after pop handed it a seat: it must take the seat, not end.
	if p.remove(c) {
		t.Fatal("remove(c) = true for a sender pop took")
	}
	if got := p.pop(); got != nil {
		t.Fatalf("pop of an empty stack gave %s", name(got, a, b, c))
	}
}

func name(ch chan *Seat, a, b, c chan *Seat) string {
	switch ch {
	case a:
		return "a"
	case b:
		return "b"
	case c:
		return "c"
	case nil:
		return "none"
	}
	return "an unknown one"
}
