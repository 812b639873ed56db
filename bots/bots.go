// Package bots holds what every Go bot shares: the Bot interface that the SDK, the server's
// house players and the in-process harness all drive.
package bots

import (
	"fmt"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// A Bot answers the decisions of one seat in one match. It sees only the Decision: the
// seat's own observation and legal actions, never the server's state.
type Bot interface {
	Act(d *orreryv1.Decision) *orreryv1.Answer
}

// Func makes a plain function a Bot.
type Func func(d *orreryv1.Decision) *orreryv1.Answer

// Act calls f.
func (f Func) Act(d *orreryv1.Decision) *orreryv1.Answer { return f(d) }

// Index is the answer that picks legal action i of d.
func Index(d *orreryv1.Decision, i int) *orreryv1.Answer {
	return &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: int32(i)}}
}

// NoteLimit is the longest note the server keeps, in bytes; it cuts a longer one and marks
// the cut.
const NoteLimit = 1024

// Noted is a with a debug note, kept with the step in the replay (shown only to this seat
// while the match runs, to everyone once it has ended):
//
//	return bots.Noted(bots.Index(d, best), "site %s: +%d production", site, gain)
func Noted(a *orreryv1.Answer, format string, args ...any) *orreryv1.Answer {
	a.Note = fmt.Sprintf(format, args...)
	return a
}

// A Receiver is a Bot that says what its decisions must carry; the SDK asks the server for
// only that (orreryv1.Receive). Bots that are not Receivers get everything.
type Receiver interface {
	Receive() *orreryv1.Receive
}

// Count is the number of legal actions of d, whichever lists it carries.
func Count(d *orreryv1.Decision) int {
	if n := int(d.GetLegalCount()); n > 0 {
		return n
	}
	return max(len(d.GetLegal()), len(d.GetLegalNotation()))
}
