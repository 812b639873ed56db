// Package random is the bot that plays any game: a seeded uniform pick from the legal list.
package random

import (
	"math/rand/v2"

	"github.com/orrery/orrery/bots"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Bot picks uniformly among the legal actions.
type Bot struct{ r *rand.Rand }

// New returns a random bot whose choices follow from seed.
func New(seed uint64) bots.Bot { return &Bot{r: rand.New(rand.NewPCG(seed, 0x5eed))} }

// Act picks a legal index.
func (b *Bot) Act(d *orreryv1.Decision) *orreryv1.Answer {
	n := bots.Count(d)
	if n == 0 {
		return bots.Index(d, 0)
	}
	return bots.Index(d, b.r.IntN(n))
}

// Receive asks for the count alone: a random pick needs no list, view, text or history,
// and no message but the decisions.
func (b *Bot) Receive() *orreryv1.Receive {
	return &orreryv1.Receive{OmitLegal: true, OmitLegalNotation: true, OmitText: true, OmitObservation: true, Quiet: true, OmitEvents: true}
}
