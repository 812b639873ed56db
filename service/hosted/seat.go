package hosted

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/orrery/orrery/bots"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Seat is the server's side of one seat, as an in-process player drives it (service.Seat:
// Attach a token, then Play). The interface is the hosted bot's, so that this package needs
// nothing else of the server.
type Seat interface {
	MatchID() string
	// BotSeed is the seed of the seat's bot, from the match seed and the seat.
	BotSeed() uint64
	// Measured keeps the CPU the bot spent on a decision with the step its answer makes.
	Measured(decisionID string, cpu time.Duration)
	SetReceive(*orreryv1.Receive)
	// Play gives reply each message of the seat in turn, and applies the answer it returns;
	// reply keeps nothing it is given (match.Seat.Play).
	Play(ctx context.Context, reply func(*orreryv1.PlayResponse) (*orreryv1.Answer, error)) error
}

// Step is what the host measured of one decision of a hosted seat, for the match's log.
type Step struct {
	DecisionID string
	Ply        int64
	CPU, Wall  time.Duration
	Debug      string
	Verdict    *Verdict // the limit broken at this decision, if one was
}

// PlayConfig says how Play plays a seat. The zero value plays on the real clock.
type PlayConfig struct {
	Now    func() time.Time // the server's clock, which decisions' deadlines are read against
	Seed   uint64           // the seat's seed, for its picks after a verdict in a match without a clock
	OnStep func(Step)       // called after each decision, on the seat's goroutine
}

// Play plays st with b until the match ends or ctx is done. Each decision's deadline is the
// module's limit. After a verdict the bot is gone and the seat plays on by the match's
// timeout policy: the server applies it at each deadline, and a decision without one (a
// match with no clock) gets the default policy's uniform pick here, since nothing else
// would ever answer it.
func Play(ctx context.Context, st Seat, b *Bot, cfg PlayConfig) error {
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	pick := rand.New(rand.NewPCG(cfg.Seed, 0x7069636b)) // "pick"
	match := st.MatchID()
	// playOn answers a decision without a deadline after a verdict.
	playOn := func(id string, count int) *orreryv1.Answer {
		return &orreryv1.Answer{DecisionId: id, MatchId: match, Choice: &orreryv1.Answer_LegalIndex{LegalIndex: int32(pick.IntN(max(count, 1)))}}
	}
	// The decision last answered, until its reply. Only these are kept of it: the seat lends
	// its messages back (Play), and builds its next decision in the memory of this one.
	var current struct {
		id    string
		ply   int64
		timed bool
		count int
	}
	reply := func(resp *orreryv1.PlayResponse) (*orreryv1.Answer, error) {
		switch m := resp.GetMsg().(type) {
		case *orreryv1.PlayResponse_Decision:
			d := m.Decision
			current.id = ""
			if b.Verdict() != nil {
				if d.GetDeadline() == nil {
					return playOn(d.GetDecisionId(), bots.Count(d)), nil
				}
				return nil, nil
			}
			limit := b.limits.Untimed
			if dl := d.GetDeadline(); dl != nil {
				limit = dl.AsTime().Sub(now())
			}
			mv, err := b.Decide(d, limit)
			step := Step{DecisionID: d.GetDecisionId(), Ply: d.GetPly(), CPU: mv.CPU, Wall: mv.Wall, Debug: mv.Debug}
			var v *Verdict
			if errors.As(err, &v) {
				step.Verdict = v
			} else if err != nil {
				return nil, err
			}
			if cfg.OnStep != nil {
				cfg.OnStep(step)
			}
			if v != nil {
				if d.GetDeadline() == nil {
					return playOn(d.GetDecisionId(), bots.Count(d)), nil
				}
				return nil, nil
			}
			current.id, current.ply, current.timed, current.count = d.GetDecisionId(), d.GetPly(), d.GetDeadline() != nil, bots.Count(d)
			// The note and the CPU go with the step into the match's log (its replay).
			mv.Answer.Note = mv.Debug
			st.Measured(current.id, mv.CPU)
			mv.Answer.MatchId = match
			return mv.Answer, nil
		case *orreryv1.PlayResponse_Rejected:
			rej := m.Rejected
			if current.id != "" && rej.GetDecisionId() == current.id && rej.GetCode() != orreryv1.RejectCode_REJECT_CODE_STALE_DECISION {
				v := b.Reject(current.id, current.ply, rej.GetReason())
				if cfg.OnStep != nil {
					cfg.OnStep(Step{DecisionID: current.id, Ply: current.ply, Verdict: v})
				}
				var a *orreryv1.Answer
				if !current.timed {
					a = playOn(current.id, current.count)
				}
				current.id = ""
				return a, nil
			}
		}
		return nil, nil
	}
	r := b.Receive()
	if r == nil {
		r = DefaultReceive()
	}
	// Quiet: the module never sees acknowledgements, so the seat need not build them. The
	// legal notations come always: the module's random source is keyed by them (source),
	// and they are left out of its line if it asked so.
	recv := &orreryv1.Receive{OmitLegal: r.GetOmitLegal(), OmitText: r.GetOmitText(), OmitObservation: r.GetOmitObservation(), OmitEvents: r.GetOmitEvents(), Quiet: true}
	st.SetReceive(recv)
	err := st.Play(ctx, reply)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
