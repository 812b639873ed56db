// Command random is a hosted bot for every game: a uniform pick among the legal actions,
// from the random source the host seeds with the match and seat.
//
//	GOOS=wasip1 GOARCH=wasm go build -o random.wasm ./bots/wasm/go/random
package main

import (
	"math/rand/v2"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/wasm/go/hostedbot"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

func main() {
	hostedbot.Run(bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer {
		return bots.Index(d, rand.IntN(bots.Count(d)))
	}))
}
