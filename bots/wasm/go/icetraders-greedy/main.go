// Command icetraders-greedy is the built-in IceTraders greedy bot (bots/icetraders) as a
// hosted bot, seeded from the host's random source.
//
//	GOOS=wasip1 GOARCH=wasm go build -o icetraders-greedy.wasm ./bots/wasm/go/icetraders-greedy
package main

import (
	"math/rand/v2"

	"github.com/orrery/orrery/bots/icetraders"
	"github.com/orrery/orrery/bots/wasm/go/hostedbot"
)

func main() { hostedbot.Run(icetraders.NewGreedy(rand.Uint64())) }
