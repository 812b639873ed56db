// Command planet-greedy is the built-in Planet greedy bot (bots/planet) as a hosted bot,
// seeded from the host's random source. It reads the observation and the typed legal
// actions only, so it asks for nothing else.
//
//	GOOS=wasip1 GOARCH=wasm go build -o planet-greedy.wasm ./bots/wasm/go/planet-greedy
package main

import (
	"math/rand/v2"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/planet"
	"github.com/orrery/orrery/bots/wasm/go/hostedbot"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

type greedy struct{ bots.Bot }

func (greedy) Receive() *orreryv1.Receive {
	return &orreryv1.Receive{OmitLegalNotation: true, OmitText: true, OmitEvents: true}
}

func main() { hostedbot.Run(greedy{planet.NewGreedy(rand.Uint64())}) }
