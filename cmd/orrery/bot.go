package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	botladder "github.com/orrery/orrery/bots/ladder"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// botOptions are the flags every bot command takes.
type botOptions struct {
	server, key string
	asJSON      bool
}

func newBotCmd() *cobra.Command {
	var o botOptions
	cmd := &cobra.Command{
		Use:   "bot",
		Short: "register, inspect, revoke and resume ladder bots",
		Long: `Manage the ladder's bot identities on a server. A registered bot plays on the ladder with ` +
			`its API key (orrery ladder, or any client sending 'authorization: bearer <key>'). ` +
			`NAME defaults to the bot whose key is given; the server's admin key may name any bot.`,
	}
	asGroup(cmd)
	pf := cmd.PersistentFlags()
	pf.StringVar(&o.server, "server", "127.0.0.1:7070", "the arena at `ADDR`")
	pf.StringVar(&o.key, "key", "", "bearer `KEY`: the bot's API key, or the server's admin key (default: env ORRERY_API_KEY)")
	pf.BoolVar(&o.asJSON, "json", false, "print the response as JSON")

	var description string
	register := &cobra.Command{
		Use:   "register NAME",
		Short: "register a bot and print its API key (shown once)",
		Args:  oneArg("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return botCall(cmd, o, func(ctx context.Context, c orreryv1.LadderServiceClient) (proto.Message, error) {
				r, err := c.RegisterBot(ctx, &orreryv1.RegisterBotRequest{Name: args[0], Description: description})
				if err == nil && !o.asJSON {
					fmt.Fprintf(cmd.OutOrStdout(), "registered %s\napi key: %s\n\nThe key is shown once; the server keeps only its hash. Play with:\n  ORRERY_API_KEY=%s orrery ladder --bot random --server %s\n",
						r.GetBot().GetName(), r.GetApiKey(), r.GetApiKey(), o.server)
					return nil, nil
				}
				return r, err
			})
		},
	}
	register.Flags().StringVar(&description, "description", "", "`TEXT` saying what the bot is")
	var wasmPath string
	var games []string
	upload := &cobra.Command{
		Use:   "upload NAME --wasm FILE --game GAME",
		Short: "upload a new version of a hosted bot's WebAssembly module (docs/hosted.md)",
		Long: `Store FILE, a WASI preview 1 module, as the next version of NAME's module: the server ` +
			`validates it by compiling it, and then plays it itself on the ladder in each GAME, the ` +
			`newest version in each new match. It takes the bot's API key or the admin key.`,
		Args: oneArg("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if wasmPath == "" {
				return usagef("%s needs --wasm FILE", cmd.CommandPath())
			}
			if len(games) == 0 {
				return usagef("%s needs --game GAME (one or more)", cmd.CommandPath())
			}
			wasm, err := os.ReadFile(wasmPath)
			if err != nil {
				return err
			}
			return botCall(cmd, o, func(ctx context.Context, c orreryv1.LadderServiceClient) (proto.Message, error) {
				r, err := c.UploadBotModule(ctx, &orreryv1.UploadBotModuleRequest{Name: args[0], Wasm: wasm, Games: games}, grpc.MaxCallSendMsgSize(len(wasm)+1<<20))
				if err == nil && !o.asJSON {
					m := r.GetModule()
					fmt.Fprintf(cmd.OutOrStdout(), "%s version %d: %d bytes, sha256 %s, plays %s\n", args[0], m.GetVersion(), m.GetSize(), m.GetDigest(), list(m.GetGames()))
					return nil, nil
				}
				return r, err
			})
		},
	}
	upload.Flags().StringVar(&wasmPath, "wasm", "", "the module `FILE` (.wasm)")
	upload.Flags().StringSliceVar(&games, "game", nil, "a `GAME` to play it in (repeat, or separate with commas)")
	cmd.AddCommand(register, upload, newBotReportCmd(&o),
		&cobra.Command{
			Use:   "info [NAME]",
			Short: "a bot's state, ratings and recent matches",
			Args:  maxOneArg("NAME"),
			RunE: func(cmd *cobra.Command, args []string) error {
				return botCall(cmd, o, func(ctx context.Context, c orreryv1.LadderServiceClient) (proto.Message, error) {
					r, err := c.GetBot(ctx, &orreryv1.GetBotRequest{Name: firstArg(args)})
					if err == nil && !o.asJSON {
						printBot(cmd.OutOrStdout(), r)
						return nil, nil
					}
					return r, err
				})
			},
		},
		&cobra.Command{
			Use:   "list",
			Short: "every registered bot",
			Args:  noArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				return botCall(cmd, o, func(ctx context.Context, c orreryv1.LadderServiceClient) (proto.Message, error) {
					r, err := c.ListBots(ctx, &orreryv1.ListBotsRequest{PageSize: 1000})
					if err == nil && !o.asJSON {
						return nil, printBots(cmd.OutOrStdout(), r.GetBots())
					}
					return r, err
				})
			},
		},
		&cobra.Command{
			Use:   "revoke [NAME]",
			Short: "disable a bot's key at once",
			Args:  maxOneArg("NAME"),
			RunE: func(cmd *cobra.Command, args []string) error {
				return botCall(cmd, o, func(ctx context.Context, c orreryv1.LadderServiceClient) (proto.Message, error) {
					r, err := c.RevokeBot(ctx, &orreryv1.RevokeBotRequest{Name: firstArg(args)})
					if err == nil && !o.asJSON {
						fmt.Fprintf(cmd.OutOrStdout(), "%s: %s\n", r.GetBot().GetName(), botState(r.GetBot()))
						return nil, nil
					}
					return r, err
				})
			},
		},
		&cobra.Command{
			Use:   "resume [NAME]",
			Short: "lift a pause from matchmaking",
			Args:  maxOneArg("NAME"),
			RunE: func(cmd *cobra.Command, args []string) error {
				return botCall(cmd, o, func(ctx context.Context, c orreryv1.LadderServiceClient) (proto.Message, error) {
					r, err := c.ResumeBot(ctx, &orreryv1.ResumeBotRequest{Name: firstArg(args)})
					if err == nil && !o.asJSON {
						fmt.Fprintf(cmd.OutOrStdout(), "%s: %s\n", r.GetBot().GetName(), botState(r.GetBot()))
						return nil, nil
					}
					return r, err
				})
			},
		},
	)
	return cmd
}

// botCall dials the server and makes one LadderService call with the key; call prints its
// own text and returns nil, or returns the response for --json.
func botCall(cmd *cobra.Command, o botOptions, call func(context.Context, orreryv1.LadderServiceClient) (proto.Message, error)) error {
	key, err := keyFrom(o.key, "ORRERY_API_KEY")
	if err != nil {
		return err
	}
	conn, client, err := ladderClient(o.server)
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx := cmd.Context()
	if key != "" {
		ctx = botladder.Key(ctx, key)
	}
	resp, err := call(ctx, client)
	if err != nil || resp == nil {
		return err
	}
	return printProto(cmd.OutOrStdout(), resp)
}

func firstArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// maxOneArg allows one optional positional argument, named what in the error.
func maxOneArg(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > 1 {
			return usagef("%s takes at most one %s; got %d arguments", cmd.CommandPath(), what, len(args))
		}
		return nil
	}
}

func printBots(w io.Writer, bots []*orreryv1.BotInfo) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "bot\thouse\tconnected\tqueued\tlive\tstate")
	for _, b := range bots {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", b.GetName(), yesNo(b.GetHouse()), yesNo(b.GetConnected()), list(b.GetQueuedGames()), len(b.GetLiveMatchIds()), botState(b))
	}
	return tw.Flush()
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
	connected := "not connected"
	if b.GetConnected() {
		connected = "connected"
	}
	fmt.Fprintf(w, "  registered %s, %s, queued for %s, timeouts in a row %d\n",
		b.GetCreated().AsTime().Local().Format(time.DateTime), connected, list(b.GetQueuedGames()), b.GetTimeoutStreak())
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
	if len(b.GetModules()) > 0 {
		fmt.Fprintln(tw, "\nhosted version\tbytes\tsha256\tgames\tuploaded")
		for _, m := range b.GetModules() {
			fmt.Fprintf(tw, "%d\t%d\t%.12s\t%s\t%s\n", m.GetVersion(), m.GetSize(), m.GetDigest(), list(m.GetGames()), m.GetUploaded().AsTime().Local().Format(time.DateTime))
		}
		verdicts := make([]string, 0, len(r.GetVerdicts()))
		for k, n := range r.GetVerdicts() {
			verdicts = append(verdicts, fmt.Sprintf("%s %d", k, n))
		}
		sort.Strings(verdicts)
		fmt.Fprintf(tw, "\nverdicts: %s\n", cmp.Or(strings.Join(verdicts, ", "), "none"))
		for _, s := range r.GetHostedSeats() {
			fmt.Fprintf(tw, "  %s seat %d\tv%d\t%d decisions\t%v CPU\t%s\n", s.GetMatchId(), s.GetSeat(), s.GetVersion(), s.GetDecisions(),
				time.Duration(s.GetCpuNs()).Round(time.Microsecond), cmp.Or(s.GetVerdictDetail(), "no verdict"))
		}
		if r.GetStderr() != "" {
			fmt.Fprintf(tw, "\nstderr of its newest seat with any:\n%s\n", r.GetStderr())
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
