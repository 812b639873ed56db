// Command random is a hosted bot for every game: a uniform pick among the legal actions,
// from the random source the host seeds with the match and seat. It draws its seed anew at
// each decision, when the host keys its source by the decision (docs/hosted.md), so its pick
// for a choice is the same in a match played again, or resumed after a server restart. It
// needs only the number of legal actions, so it asks for nothing else (bots.Receiver): its
// decisions are short.
//
//	GOOS=wasip1 GOARCH=wasm go build -o random.wasm ./bots/wasm/go/random
package main

import (
	crand "crypto/rand"
	"math/rand/v2"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/wasm/go/hostedbot"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

type random struct{}

func (random) Act(d *orreryv1.Decision) *orreryv1.Answer {
	var seed [32]byte
	crand.Read(seed[:]) // WASI's random_get: the host's source, keyed by this decision
	return bots.Index(d, rand.New(rand.NewChaCha8(seed)).IntN(bots.Count(d)))
}

func (random) Receive() *orreryv1.Receive {
	return &orreryv1.Receive{OmitLegal: true, OmitLegalNotation: true, OmitText: true, OmitObservation: true, OmitEvents: true}
}

func main() { hostedbot.Run(random{}) }
