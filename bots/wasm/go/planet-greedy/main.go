// Command planet-greedy is the built-in Planet greedy bot (bots/planet) as a hosted bot,
// seeded from the host's random source.
//
//	GOOS=wasip1 GOARCH=wasm go build -o planet-greedy.wasm ./bots/wasm/go/planet-greedy
package main

import (
	"math/rand/v2"

	"github.com/orrery/orrery/bots/planet"
	"github.com/orrery/orrery/bots/wasm/go/hostedbot"
)

func main() { hostedbot.Run(planet.NewGreedy(rand.Uint64())) }
