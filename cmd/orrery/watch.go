package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

func newWatchCmd() *cobra.Command {
	var server string
	var every time.Duration
	cmd := &cobra.Command{
		Use:   "watch MATCH_ID",
		Short: "follow a match as a spectator, redrawn in place, to its end",
		Long: `Follow a match in the terminal as a spectator sees it: the public view, redrawn in place ` +
			`after each change, and at the end the result and the revealed seed. A finished match shows ` +
			`its final position. Hidden information stays hidden: this is the view anyone may watch. ` +
			`Piped or redirected (not a terminal) it prints the view at most once every --every, and the ` +
			`final one, rather than every change. 'orrery matches --status live' lists matches to watch.`,
		Args: oneArg("MATCH_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return watch(cmd.Context(), cmd.OutOrStdout(), server, args[0], every)
		},
	}
	cmd.Flags().StringVar(&server, "server", "127.0.0.1:7070", "the arena at `ADDR`")
	cmd.Flags().DurationVar(&every, "every", 5*time.Second, "not on a terminal: print the view at most this often, and the final one (0: every change)")
	return cmd
}

// watch follows match id. On a terminal it redraws at every change; elsewhere (a pipe, a
// file) each change would be a whole screen more, thousands a minute for a real-time game,
// so it prints the view at most once every every, and the final one.
func watch(ctx context.Context, stdout io.Writer, server, id string, every time.Duration) error {
	conn, err := dial(server)
	if err != nil {
		return err
	}
	defer conn.Close()
	client := orreryv1.NewArenaServiceClient(conn)
	got, err := client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
	if err != nil {
		return err
	}
	m := got.GetMatch()
	stream, err := client.Watch(ctx, &orreryv1.WatchRequest{MatchId: id})
	if err != nil {
		return err
	}
	scr := newScreen(stdout)
	if scr.tty {
		every = 0
	}
	var drawn time.Time
	w := watcher{match: m}
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return errors.New("the server closed the stream before the match ended; run the command again to follow it")
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil // interrupted: the person stopped watching
			}
			return err
		}
		ended := w.apply(resp)
		if ended || every <= 0 || time.Since(drawn) >= every {
			if scr.draw(w.render()) {
				drawn = time.Now()
			}
		}
		if ended {
			return nil
		}
	}
}

// watcher is what the watch screen shows: the match, its latest public view, the last few
// public happenings, and its end.
type watcher struct {
	match   *orreryv1.MatchSummary
	view    *orreryv1.Spectate
	recent  []string // the latest timeouts, newest last
	ended   *orreryv1.MatchEnded
	eventsN int64
}

// apply takes one message of the Watch stream, and reports whether the match has ended.
func (w *watcher) apply(resp *orreryv1.WatchResponse) bool {
	switch msg := resp.GetMsg().(type) {
	case *orreryv1.WatchResponse_View:
		w.view = msg.View
	case *orreryv1.WatchResponse_Events:
		for _, e := range msg.Events.GetEvents() {
			w.eventsN = e.GetSeq() + 1
			if t := e.GetTimedOut(); t != nil {
				w.recent = append(w.recent, fmt.Sprintf("%s timed out (%s)", w.seatName(t.GetSeat()),
					strings.ToLower(strings.TrimPrefix(t.GetPolicy().String(), "TIMEOUT_POLICY_"))))
			}
		}
		if len(w.recent) > 3 {
			w.recent = w.recent[len(w.recent)-3:]
		}
	case *orreryv1.WatchResponse_Ended:
		w.ended = msg.Ended
		return true
	}
	return false
}

func (w *watcher) seatName(seat int32) string {
	for _, s := range w.match.GetSeatInfo() {
		if s.GetSeat() == seat && s.GetName() != "" {
			return fmt.Sprintf("seat %d (%s)", seat, s.GetName())
		}
	}
	return fmt.Sprintf("seat %d", seat)
}

// render is the whole screen.
func (w *watcher) render() string {
	var b strings.Builder
	m := w.match
	state := "live"
	if w.ended != nil {
		state = "ended"
	}
	fmt.Fprintf(&b, "match %s: %s, %d seats, %s, ply %d, %s\n", m.GetMatchId(), m.GetGame(), m.GetSeats(),
		optionList(m.GetOptions()), w.view.GetPly(), state)
	names := make([]string, len(m.GetSeatInfo()))
	for i, s := range m.GetSeatInfo() {
		names[i] = w.seatName(s.GetSeat())
	}
	fmt.Fprintf(&b, "%s\n\n", strings.Join(names, ", "))
	if w.view != nil {
		b.WriteString(strings.TrimRight(w.view.GetText(), "\n"))
		b.WriteString("\n")
	}
	for _, r := range w.recent {
		fmt.Fprintf(&b, "  %s\n", r)
	}
	if e := w.ended; e != nil {
		fmt.Fprintf(&b, "\nended: %s\nseed %d (sha256 %s); 'orrery replay %s' verifies it\n",
			resultLine(e.GetResult()), e.GetSeed(), e.GetSeedHash(), m.GetMatchId())
	}
	return b.String()
}
