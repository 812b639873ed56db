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
	if len(d.GetLegal()) == 0 {
		return bots.Index(d, 0)
	}
	return bots.Index(d, b.r.IntN(len(d.GetLegal())))
}
