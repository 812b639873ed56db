package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// join plays one seat of an existing match with a built-in bot: the other half of playing a
// match by hand with grpcurl.
func join(ctx context.Context, stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("join", flag.ExitOnError)
	server := fs.String("server", "127.0.0.1:7070", "arena address")
	token := fs.String("token", "", "the seat token from CreateMatch")
	botName := fs.String("bot", "random", "built-in bot to play the seat")
	seed := fs.Uint64("seed", 1, "the bot's seed")
	fs.Parse(args)
	if *token == "" {
		return fmt.Errorf("--token is required")
	}
	conn, err := dial(*server)
	if err != nil {
		return err
	}
	defer conn.Close()
	var game string
	var bot sdkBot
	end, err := sdk.Play(ctx, conn, *token, &bot, sdk.Options{
		OnJoined: func(j *orreryv1.Joined) {
			game = j.GetGame()
			fmt.Fprintf(stdout, "joined match %s (%s) as seat %d\n", j.GetMatchId(), game, j.GetSeat())
			b, err := builtin.New(game, *botName, *seed)
			if err != nil {
				fmt.Fprintf(stdout, "%v; playing random\n", err)
				b, _ = builtin.New(game, "random", *seed)
			}
			bot.set(b)
		},
		OnRejected: func(r *orreryv1.ActionRejected) { fmt.Fprintf(stdout, "rejected: %s\n", r.GetReason()) },
	})
	if err != nil {
		return err
	}
	res := end.GetResult()
	fmt.Fprintf(stdout, "match ended (%s): ranks %v, scores %v: %s\n", endReason(res.GetReason()), res.GetRanks(), res.GetScores(), res.GetDetail())
	return nil
}

// sdkBot is a bot chosen once the game is known, on joining.
type sdkBot struct{ b bots.Bot }

func (s *sdkBot) set(b bots.Bot) { s.b = b }

func (s *sdkBot) Act(d *orreryv1.Decision) *orreryv1.Answer { return s.b.Act(d) }
