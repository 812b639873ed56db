// Command icetraders-greedy is the built-in IceTraders greedy bot (bots/icetraders) as a
// hosted bot, seeded from the host's random source. It reads the observation and the legal
// notations only, so it asks for nothing else.
//
//	GOOS=wasip1 GOARCH=wasm go build -o icetraders-greedy.wasm ./bots/wasm/go/icetraders-greedy
package main

import (
	"math/rand/v2"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/icetraders"
	"github.com/orrery/orrery/bots/wasm/go/hostedbot"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

type greedy struct{ bots.Bot }

func (greedy) Receive() *orreryv1.Receive {
	return &orreryv1.Receive{OmitLegal: true, OmitText: true, OmitEvents: true}
}

func main() { hostedbot.Run(greedy{icetraders.NewGreedy(rand.Uint64())}) }
