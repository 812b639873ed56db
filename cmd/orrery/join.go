package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"google.golang.org/grpc"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// join plays one seat of an existing match with a built-in bot: the other half of playing a
// match by hand with grpcurl.
func newJoinCmd() *cobra.Command {
	var o joinOptions
	cmd := &cobra.Command{
		Use:   "join --token T",
		Short: "play one seat of a match with a built-in bot",
		Long: `Play one seat of an existing match with a built-in bot, given the seat's token from ` +
			`CreateMatch: the other half of playing a match by hand with grpcurl.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return join(cmd.Context(), cmd.OutOrStdout(), o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.server, "server", "127.0.0.1:7070", "the arena at `ADDR`; the nodes of a cluster as ADDR,ADDR,... (the next is tried when one fails)")
	f.StringVar(&o.token, "token", "", "the seat token `T` from CreateMatch")
	f.StringVar(&o.bot, "bot", "random", "built-in bot to play the seat")
	f.Uint64Var(&o.seed, "seed", 1, "the bot's seed")
	return cmd
}

// joinOptions are the flags of orrery join.
type joinOptions struct {
	server, token, bot string
	seed               uint64
}

func join(ctx context.Context, stdout io.Writer, o joinOptions) error {
	if o.token == "" {
		return usagef("--token is required")
	}
	conn, err := dialNodes(o.server)
	if err != nil {
		return err
	}
	defer conn.Close()
	var game string
	var bot sdkBot
	end, err := sdk.Play(ctx, conn, o.token, &bot, sdk.Options{
		OnJoined: func(j *orreryv1.Joined) {
			game = j.GetGame()
			fmt.Fprintf(stdout, "joined match %s (%s) as seat %d\n", j.GetMatchId(), game, j.GetSeat())
			b, err := builtin.New(game, o.bot, o.seed)
			if err != nil {
				fmt.Fprintf(stdout, "%v; playing random\n", err)
				b, _ = builtin.New(game, "random", o.seed)
			}
			bot.set(b)
		},
		OnRejected: func(r *orreryv1.ActionRejected) { fmt.Fprintf(stdout, "rejected: %s\n", r.GetReason()) },
	})
	if err != nil {
		return err
	}
	res := end.GetResult()
	fmt.Fprintf(stdout, "match ended: %s\n", resultLine(res))
	return nil
}

// sdkBot is a bot chosen once the game is known, on joining.
type sdkBot struct{ b bots.Bot }

func (s *sdkBot) set(b bots.Bot) { s.b = b }

func (s *sdkBot) Act(d *orreryv1.Decision) *orreryv1.Answer { return s.b.Act(d) }

// dialNodes connects a client to the arena at list, one address or the nodes of a cluster
// separated by commas, with the transport of dial: calls move to the next node when one
// fails (sdk.Nodes).
func dialNodes(list string) (*sdk.Nodes, error) {
	addrs := sdk.SplitAddrs(list)
	if len(addrs) == 0 {
		return nil, usagef("--server is empty")
	}
	creds, err := clientTransport.credentials()
	if err != nil {
		return nil, err
	}
	return sdk.Dial(addrs, grpc.WithTransportCredentials(creds))
}
