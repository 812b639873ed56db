package hosted

import "fmt"

// Kind names a limit a hosted bot broke, as Botzone names its verdicts. After one, the bot's
// instance is gone and its seat plays on by the match's timeout policy.
type Kind string

const (
	TimeLimit    Kind = "TIME_LIMIT"    // no answer by the decision's deadline (or, at the start, its allowance)
	MemoryLimit  Kind = "MEMORY_LIMIT"  // died after the host refused it memory past its cap
	OutputLimit  Kind = "OUTPUT_LIMIT"  // a line past the line limit, or lines no decision asked for
	RuntimeError Kind = "RUNTIME_ERROR" // a trap, or an exit while the match went on
	BadAnswer    Kind = "BAD_ANSWER"    // an answer that is not one, or one the match refused
)

// Verdict is the limit a seat's bot broke, where and why.
type Verdict struct {
	Kind       Kind
	DecisionID string // the decision it broke on; empty before the first
	Ply        int64
	Detail     string // for the bot's owner: what the host saw
}

func (v *Verdict) String() string {
	if v.DecisionID == "" {
		return fmt.Sprintf("%s before the first decision: %s", v.Kind, v.Detail)
	}
	return fmt.Sprintf("%s at decision %s (ply %d): %s", v.Kind, v.DecisionID, v.Ply, v.Detail)
}

// Error makes a verdict an error, for callers that only need to know the bot is gone.
func (v *Verdict) Error() string { return "hosted bot: " + v.String() }
