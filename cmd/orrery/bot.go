package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	botladder "github.com/orrery/orrery/bots/ladder"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

const botUsage = `usage:
  orrery bot register NAME [--description TEXT]   print a new bot's API key (shown once)
  orrery bot info     [NAME]                      state, ratings and recent matches (NAME: the key's bot)
  orrery bot list                                 every registered bot
  orrery bot revoke   [NAME]                      disable the key at once
  orrery bot resume   [NAME]                      lift a pause from matchmaking
flags (after the subcommand): --server ADDR, --key KEY (env ORRERY_API_KEY; the admin key where
the server has one), --json`

// bot manages ladder bot identities on a server.
func bot(ctx context.Context, stdout io.Writer, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stdout, botUsage)
		return nil
	}
	sub := args[0]
	fs := flag.NewFlagSet("bot "+sub, flag.ExitOnError)
	server := fs.String("server", "127.0.0.1:7070", "arena address")
	key := fs.String("key", os.Getenv("ORRERY_API_KEY"), "bearer key: the bot's API key, or the server's admin key")
	description := fs.String("description", "", "register: what the bot is")
	asJSON := fs.Bool("json", false, "print the response as JSON")
	// The name may come before or after the flags.
	rest := args[1:]
	var name string
	if len(rest) > 0 && rest[0] != "" && rest[0][0] != '-' {
		name, rest = rest[0], rest[1:]
	}
	fs.Parse(rest)
	if name == "" {
		name = fs.Arg(0)
	}
	conn, client, err := ladderClient(*server)
	if err != nil {
		return err
	}
	defer conn.Close()
	if *key != "" {
		ctx = botladder.Key(ctx, *key)
	}
	var resp proto.Message
	switch sub {
	case "register":
		if name == "" {
			return fmt.Errorf("usage: orrery bot register NAME")
		}
		r, err := client.RegisterBot(ctx, &orreryv1.RegisterBotRequest{Name: name, Description: *description})
		if err != nil {
			return err
		}
		if !*asJSON {
			fmt.Fprintf(stdout, "registered %s\napi key: %s\n\nThe key is shown once; the server keeps only its hash. Play with:\n  ORRERY_API_KEY=%s orrery ladder --bot random --server %s\n",
				r.GetBot().GetName(), r.GetApiKey(), r.GetApiKey(), *server)
			return nil
		}
		resp = r
	case "info":
		r, err := client.GetBot(ctx, &orreryv1.GetBotRequest{Name: name})
		if err != nil {
			return err
		}
		if !*asJSON {
			printBot(stdout, r)
			return nil
		}
		resp = r
	case "list":
		r, err := client.ListBots(ctx, &orreryv1.ListBotsRequest{PageSize: 1000})
		if err != nil {
			return err
		}
		if !*asJSON {
			tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "bot\thouse\tconnected\tqueued\tlive\tstate")
			for _, b := range r.GetBots() {
				fmt.Fprintf(tw, "%s\t%v\t%v\t%v\t%d\t%s\n", b.GetName(), b.GetHouse(), b.GetConnected(), b.GetQueuedGames(), len(b.GetLiveMatchIds()), botState(b))
			}
			return tw.Flush()
		}
		resp = r
	case "revoke":
		r, err := client.RevokeBot(ctx, &orreryv1.RevokeBotRequest{Name: name})
		if err != nil {
			return err
		}
		resp = r
	case "resume":
		r, err := client.ResumeBot(ctx, &orreryv1.ResumeBotRequest{Name: name})
		if err != nil {
			return err
		}
		resp = r
	default:
		return fmt.Errorf("unknown bot command %q\n%s", sub, botUsage)
	}
	if *asJSON {
		b, err := protojson.MarshalOptions{Multiline: true}.Marshal(resp)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, string(b))
		return nil
	}
	var info *orreryv1.BotInfo
	switch r := resp.(type) {
	case *orreryv1.RevokeBotResponse:
		info = r.GetBot()
	case *orreryv1.ResumeBotResponse:
		info = r.GetBot()
	}
	fmt.Fprintf(stdout, "%s: %s\n", info.GetName(), botState(info))
	return nil
}

func botState(b *orreryv1.BotInfo) string {
	switch {
	case b.GetRevoked():
		return "revoked"
	case b.GetPaused():
		return fmt.Sprintf("paused until %s: %s", b.GetPausedUntil().AsTime().Local().Format(time.DateTime), b.GetPauseReason())
	}
	return "active"
}

func printBot(w io.Writer, r *orreryv1.GetBotResponse) {
	b := r.GetBot()
	fmt.Fprintf(w, "%s  (%s)\n", b.GetName(), botState(b))
	if b.GetDescription() != "" {
		fmt.Fprintf(w, "  %s\n", b.GetDescription())
	}
	fmt.Fprintf(w, "  registered %s, connected %v, queued for %v, timeouts in a row %d\n",
		b.GetCreated().AsTime().Local().Format(time.DateTime), b.GetConnected(), b.GetQueuedGames(), b.GetTimeoutStreak())
	for _, id := range b.GetLiveMatchIds() {
		fmt.Fprintf(w, "  playing %s\n", id)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if len(r.GetRatings()) > 0 {
		fmt.Fprintln(tw, "\ngame\tscore\tmu\tsigma\tgames\twins")
		for _, g := range r.GetRatings() {
			fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%d\t%d\n", g.GetGame(), g.GetScore(), g.GetMu(), g.GetSigma(), g.GetGames(), g.GetWins())
		}
	}
	if len(r.GetRecent()) > 0 {
		fmt.Fprintln(tw, "\nmatch (orrery replay ID)\tgame\trank\tmu")
		for _, m := range r.GetRecent() {
			fmt.Fprintf(tw, "%s\t%s\t%d of %d\t%.2f → %.2f\n", m.GetMatchId(), m.GetGame(), m.GetRank(), m.GetSeats(), m.GetMuBefore(), m.GetMuAfter())
		}
	}
	tw.Flush()
}

// ladderClient dials server for the LadderService.
func ladderClient(server string) (*grpc.ClientConn, orreryv1.LadderServiceClient, error) {
	conn, err := dial(server)
	if err != nil {
		return nil, nil, err
	}
	return conn, orreryv1.NewLadderServiceClient(conn), nil
}

// printJSON writes v as indented JSON.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
