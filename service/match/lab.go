package match

import (
	"strconv"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// The bot author's lab: what the server measured of each step (the acting seat's think
// time, the answers it rejected before it, the CPU of a bot the server runs itself) and the
// bot's own note, logged with the step. A finished match's replay shows them; while a match
// runs only the seat that wrote them reads them (SeatNotes, through service.GetSeatNotes), so
// nobody else (another seat, a spectator, a view) is shown a note or a timing.

// NoteLimit is the longest note kept, in bytes: a longer one is cut to fit with its mark.
const NoteLimit = 1024

// maxRejections is how many rejected answers a step keeps the codes of: a bot that floods
// its stream with bad answers must not grow its decision without end.
const maxRejections = 32

// stepLab is the lab's record of a step; zero for steps no seat answered.
type stepLab struct {
	think    time.Duration // from sending the decision to receiving the answer applied
	rejected store.RejectCodes
	note     string
	cpu      time.Duration // a hosted bot's CPU on the decision (Seat.Measured); 0 otherwise
}

// cutNote is note within NoteLimit bytes: a longer one is cut at a character's boundary and
// marked with how long it was.
func cutNote(note string) string {
	if len(note) <= NoteLimit {
		return note
	}
	mark := " …[cut: " + strconv.Itoa(len(note)) + " bytes]"
	keep := NoteLimit - len(mark)
	for keep > 0 && !utf8.RuneStart(note[keep]) {
		keep--
	}
	return note[:keep] + mark
}

// rejectLocked notes a rejected answer on the decision p it answered, if p is still owed.
func (p *pending) rejectLocked(code orreryv1.RejectCode) {
	if p != nil && len(p.rejected) < maxRejections {
		p.rejected = append(p.rejected, byte(code))
	}
}

// answeredLab is the lab's record of p answered at now with ans.
func (p *pending) answeredLab(now time.Time, ans *orreryv1.Answer) stepLab {
	sent := p.sent
	if sent.IsZero() || sent.Before(p.issued) {
		sent = p.issued // not sent yet: answered blind, or by a seat driven in process
	}
	return stepLab{think: max(now.Sub(sent), 0), rejected: store.RejectCodes(p.rejected), note: cutNote(ans.GetNote()), cpu: p.cpu}
}

// labOf is a stored step's lab record.
func labOf(sp store.Step) stepLab {
	return stepLab{think: sp.Think, rejected: sp.Rejected, note: sp.Note, cpu: sp.CPU}
}

// store copies l into the stored step rec.
func (l stepLab) store(rec *store.Step) {
	rec.Think, rec.Rejected, rec.Note, rec.CPU = l.think, l.rejected, l.note, l.cpu
}

// fill copies l into a replay's step.
func (l stepLab) fill(step *orreryv1.ReplayStep) {
	if l.think > 0 {
		step.ThinkTime = durationpb.New(l.think)
	}
	for _, c := range l.rejected.Codes() {
		step.Rejections = append(step.Rejections, orreryv1.RejectCode(c))
	}
	step.Note = l.note
	if l.cpu > 0 {
		step.CpuTime = durationpb.New(l.cpu)
	}
}

// SeatNotes is seat's own record of the steps so far, and whether the match still runs:
// what only that seat may read while it runs (service.GetSeatNotes checks who asks).
func (m *Match) SeatNotes(seat engine.Seat) ([]*orreryv1.SeatNote, bool) {
	m.mu.Lock()
	steps, running := m.steps, !m.ended // logged steps never change once appended
	m.mu.Unlock()
	return seatNotes(steps, seat), running
}

// SeatNotes is seat's record of the log's steps.
func (l *Log) SeatNotes(seat engine.Seat) []*orreryv1.SeatNote { return seatNotes(l.steps, seat) }

func seatNotes(steps []logged, seat engine.Seat) []*orreryv1.SeatNote {
	var out []*orreryv1.SeatNote
	for i, s := range steps {
		if s.step.Seat != seat {
			continue
		}
		n := &orreryv1.SeatNote{Step: int64(i), TimedOut: s.timedOut, Note: s.lab.note}
		if s.lab.think > 0 {
			n.ThinkTime = durationpb.New(s.lab.think)
		}
		for _, c := range s.lab.rejected.Codes() {
			n.Rejections = append(n.Rejections, orreryv1.RejectCode(c))
		}
		if s.lab.cpu > 0 {
			n.CpuTime = durationpb.New(s.lab.cpu)
		}
		out = append(out, n)
	}
	return out
}
