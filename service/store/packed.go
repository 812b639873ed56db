package store

import (
	"encoding/binary"
	"errors"
	"slices"
	"time"
)

// stepsFormat is the first byte of a packed batch, so that the format can change.
const stepsFormat = 1

// appendPacked packs steps into a step log row or a run, appended to b: after the format
// byte, each step as its match id ("" in a run) and its body, each prefixed with its length,
// so that a reader looking for one match skips the others' steps whole. A body is the
// step's number and seat (varints), notation (length-prefixed), timeout policy and bank
// (varints), then, only if the step has any, the lab's: think time (a varint), the reject
// codes and the note (length-prefixed), and a hosted bot's CPU (a varint) if it has one; a
// reader finds each by the body not having ended.
func appendPacked(b []byte, steps []MatchStep) []byte {
	n := 1
	for _, s := range steps {
		n += len(s.Match) + len(s.Notation) + 26
		if s.hasLab() {
			n += len(s.Rejected) + len(s.Note) + 26
		}
	}
	b = slices.Grow(b, n)
	b = append(b, stepsFormat)
	for _, s := range steps {
		b = binary.AppendUvarint(b, uint64(len(s.Match)))
		b = append(b, s.Match...)
		// The body's length goes before it: it is under 128 bytes but for a notation that
		// long, so a byte is kept for it and the body moved only if it needs more.
		at := len(b)
		b = append(b, 0)
		b = binary.AppendVarint(b, s.Seq)
		b = binary.AppendVarint(b, int64(s.Seat))
		b = binary.AppendUvarint(b, uint64(len(s.Notation)))
		b = append(b, s.Notation...)
		b = binary.AppendVarint(b, int64(s.TimedOut))
		b = binary.AppendVarint(b, int64(s.Bank))
		if s.hasLab() {
			b = binary.AppendVarint(b, int64(s.Think))
			b = binary.AppendUvarint(b, uint64(len(s.Rejected)))
			b = append(b, s.Rejected...)
			b = binary.AppendUvarint(b, uint64(len(s.Note)))
			b = append(b, s.Note...)
			if s.CPU != 0 {
				b = binary.AppendVarint(b, int64(s.CPU))
			}
		}
		if n := len(b) - at - 1; n < 0x80 {
			b[at] = byte(n)
		} else {
			var l [binary.MaxVarintLen64]byte
			k := binary.PutUvarint(l[:], uint64(n))
			b = append(b, l[1:k]...) // room for the rest of the length
			copy(b[at+k:], b[at+1:len(b)-(k-1)])
			copy(b[at:], l[:k])
		}
	}
	return b
}

var errPacked = errors.New("store: a step log row is damaged")

// unpackSteps appends the steps packed in b to out: all of them, or those of match only
// if it is not "".
func unpackSteps(out []MatchStep, b []byte, match string) ([]MatchStep, error) {
	var last string // a batch often holds a match's steps one after another: one string each
	err := eachPacked(b, func(id, step []byte) bool {
		if match != "" && string(id) != match {
			return true
		}
		s, ok := unpackStep(step)
		if !ok {
			return false
		}
		if string(id) != last {
			last = string(id)
		}
		out = append(out, MatchStep{Match: last, Step: s})
		return true
	})
	return out, err
}

// unpackStep reads a step's body, with its length before it.
func unpackStep(b []byte) (Step, bool) {
	b, _, ok := chunk(b)
	seq, b, ok1 := number(b, ok)
	seat, b, ok2 := number(b, ok1)
	notation, b, ok3 := chunk(b)
	timedOut, b, ok4 := number(b, ok2 && ok3)
	bank, b, ok5 := number(b, ok4)
	s := Step{Seq: seq, Seat: int(seat), Notation: string(notation), TimedOut: int32(timedOut), Bank: time.Duration(bank)}
	if !ok5 || len(b) == 0 {
		return s, ok5
	}
	think, b, ok6 := number(b, true)
	rejected, b, ok7 := chunk(b)
	note, b, ok8 := chunk(b)
	s.Think, s.Rejected, s.Note = time.Duration(think), RejectCodes(rejected), string(note)
	if !ok6 || !ok7 || !ok8 || len(b) == 0 {
		return s, ok6 && ok7 && ok8
	}
	cpu, b, ok9 := number(b, true)
	s.CPU = time.Duration(cpu)
	return s, ok9 && len(b) == 0
}

// hasLab reports whether s carries anything of the lab's.
func (s Step) hasLab() bool { return s.Think != 0 || s.Rejected != "" || s.Note != "" || s.CPU != 0 }

// eachPacked calls f with each step packed in b: its match id, and its body with the
// body's length before it, until f returns false (a damaged step).
func eachPacked(b []byte, f func(match, step []byte) bool) error {
	if len(b) == 0 || b[0] != stepsFormat {
		return errPacked
	}
	b = b[1:]
	for len(b) > 0 {
		match, rest, ok := chunk(b)
		if !ok {
			return errPacked
		}
		_, after, ok := chunk(rest)
		if !ok || !f(match, rest[:len(rest)-len(after)]) {
			return errPacked
		}
		b = after
	}
	return nil
}

// chunk splits the bytes prefixed with their length off the front of b.
func chunk(b []byte) (v, rest []byte, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < n {
		return nil, nil, false
	}
	return b[k : k+int(n)], b[k+int(n):], true
}

// number splits a varint off the front of b, if ok so far.
func number(b []byte, ok bool) (int64, []byte, bool) {
	v, k := binary.Varint(b)
	if !ok || k <= 0 {
		return 0, nil, false
	}
	return v, b[k:], true
}
