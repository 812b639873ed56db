package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	botladder "github.com/orrery/orrery/bots/ladder"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// seatReport summarises one seat's decisions in a match: the --json of orrery bot report.
type seatReport struct {
	Match      string         `json:"match_id"`
	Game       string         `json:"game"`
	Seat       int            `json:"seat"`
	Name       string         `json:"name"`
	Rank       int            `json:"rank,omitempty"`
	Decisions  int            `json:"decisions"`    // steps the seat owed and made, or its clock made
	Answered   int            `json:"answered"`     // of them, answers with a think time measured
	ThinkP50   float64        `json:"think_p50_ms"` // over the answered decisions
	ThinkP99   float64        `json:"think_p99_ms"`
	ThinkMax   float64        `json:"think_max_ms"`
	Timeouts   int            `json:"timeouts"`
	Policies   map[string]int `json:"timeout_policies,omitempty"` // what chose on a timeout
	Rejections map[string]int `json:"rejections,omitempty"`       // by reason
	LastNotes  []reportNote   `json:"last_notes,omitempty"`
	Hosted     *hostedReport  `json:"hosted,omitempty"` // a hosted bot's seat: the server ran its module
}

// hostedReport is what the server recorded of a hosted module's seat.
type hostedReport struct {
	Version   int     `json:"version"`
	Verdict   string  `json:"verdict,omitempty"` // TIME_LIMIT, MEMORY_LIMIT, OUTPUT_LIMIT, RUNTIME_ERROR, BAD_ANSWER; empty if none
	Detail    string  `json:"verdict_detail,omitempty"`
	Decisions int     `json:"decisions"`
	CPUMillis float64 `json:"cpu_ms"`
}

// reportNote is a note and the step it was written at.
type reportNote struct {
	Step int    `json:"step"`
	Note string `json:"note"`
}

// lastNotes is how many of a seat's last notes the report keeps.
const lastNotes = 5

func newBotReportCmd(o *botOptions) *cobra.Command {
	var seat int
	cmd := &cobra.Command{
		Use:   "report MATCH_ID",
		Short: "summarise a bot's seat in a finished match: think times, timeouts, rejections, verdicts, its last notes",
		Long: `Summarise the seat a bot played in a finished match from the match's replay: its ` +
			`decisions, think time as the server measured it (p50, p99, the longest), timeouts and ` +
			`what the clock's policy chose, rejected answers by reason, a hosted bot's verdict (the limit ` +
			`its module broke, if any, with its module version, decisions and CPU time), and the last ` +
			`notes the bot wrote (Answer.note). The seat is the one named as the bot whose key is given, or --seat.`,
		Args: oneArg("MATCH_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("seat") {
				seat = -1
			}
			return botReport(cmd.Context(), cmd.OutOrStdout(), *o, args[0], seat)
		},
	}
	cmd.Flags().IntVar(&seat, "seat", 0, "report seat `N` (default: the seat named as the key's bot)")
	return cmd
}

func botReport(ctx context.Context, stdout io.Writer, o botOptions, id string, seat int) error {
	key, err := keyFrom(o.key, "ORRERY_API_KEY")
	if err != nil {
		return err
	}
	conn, err := dial(o.server)
	if err != nil {
		return err
	}
	defer conn.Close()
	if key != "" {
		ctx = botladder.Key(ctx, key)
	}
	r, err := orreryv1.NewArenaServiceClient(conn).GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
	if err != nil {
		return err
	}
	if seat < 0 {
		if key == "" {
			return usagef("give the bot's --key (or env ORRERY_API_KEY), or --seat")
		}
		bot, err := orreryv1.NewLadderServiceClient(conn).GetBot(ctx, &orreryv1.GetBotRequest{})
		if err != nil {
			return err
		}
		name := bot.GetBot().GetName()
		for _, s := range r.GetMatch().GetSeatInfo() {
			if s.GetName() == name {
				seat = int(s.GetSeat())
				break
			}
		}
		if seat < 0 {
			return fmt.Errorf("bot %s has no seat in match %s; --seat N picks one", name, id)
		}
	}
	rep, err := reportSeat(r, seat)
	if err != nil {
		return err
	}
	if rep.Hosted, err = hostedVerdict(ctx, orreryv1.NewLadderServiceClient(conn), rep); err != nil {
		return err
	}
	if o.asJSON {
		return printJSON(stdout, rep)
	}
	printReport(stdout, rep)
	return nil
}

// reportSeat summarises seat's steps in replay r.
func reportSeat(r *orreryv1.GetReplayResponse, seat int) (seatReport, error) {
	m := r.GetMatch()
	if seat < 0 || seat >= int(m.GetSeats()) {
		return seatReport{}, fmt.Errorf("match %s has seats 0 to %d; no seat %d", m.GetMatchId(), m.GetSeats()-1, seat)
	}
	rep := seatReport{Match: m.GetMatchId(), Game: m.GetGame(), Seat: seat}
	for _, s := range m.GetSeatInfo() {
		if int(s.GetSeat()) == seat {
			rep.Name = s.GetName()
		}
	}
	if ranks := m.GetResult().GetRanks(); seat < len(ranks) {
		rep.Rank = int(ranks[seat])
	}
	var think []time.Duration
	for i, s := range r.GetSteps() {
		if int(s.GetSeat()) != seat {
			continue
		}
		rep.Decisions++
		if s.GetThinkTime() != nil {
			think = append(think, s.GetThinkTime().AsDuration())
		}
		if p := s.GetTimedOut(); p != orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED {
			rep.Timeouts++
			bump(&rep.Policies, strings.ToLower(strings.TrimPrefix(p.String(), "TIMEOUT_POLICY_")))
		}
		for _, c := range s.GetRejections() {
			bump(&rep.Rejections, rejectName(c))
		}
		if n := s.GetNote(); n != "" {
			rep.LastNotes = append(rep.LastNotes, reportNote{Step: i, Note: n})
		}
	}
	rep.LastNotes = rep.LastNotes[max(0, len(rep.LastNotes)-lastNotes):]
	rep.Answered = len(think)
	slices.Sort(think)
	rep.ThinkP50, rep.ThinkP99 = ms(quantile(think, 0.50)), ms(quantile(think, 0.99))
	if len(think) > 0 {
		rep.ThinkMax = ms(think[len(think)-1])
	}
	return rep, nil
}

// hostedVerdict is the server's record of rep's seat if a hosted bot played it: nil for a
// seat no registered bot played, or one that plays on its own stream.
func hostedVerdict(ctx context.Context, ladder orreryv1.LadderServiceClient, rep seatReport) (*hostedReport, error) {
	if rep.Name == "" {
		return nil, nil
	}
	bot, err := ladder.GetBot(ctx, &orreryv1.GetBotRequest{Name: rep.Name, MatchId: rep.Match, RecentMatches: 1})
	switch status.Code(err) {
	case codes.OK:
	case codes.NotFound, codes.Unimplemented: // a built-in or unnamed seat, or a server without the ladder
		return nil, nil
	default:
		return nil, err
	}
	for _, s := range bot.GetHostedSeats() {
		if s.GetMatchId() == rep.Match && int(s.GetSeat()) == rep.Seat {
			return &hostedReport{Version: int(s.GetVersion()), Verdict: s.GetVerdict(), Detail: s.GetVerdictDetail(),
				Decisions: int(s.GetDecisions()), CPUMillis: ms(time.Duration(s.GetCpuNs()))}, nil
		}
	}
	return nil, nil
}

func bump(m *map[string]int, k string) {
	if *m == nil {
		*m = map[string]int{}
	}
	(*m)[k]++
}

// quantile is the q-quantile of sorted by the nearest rank (0 of none): p99 of 150 think
// times is the 149th, a time the bot really took.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[max(0, int(math.Ceil(q*float64(len(sorted))))-1)]
}

// ms is d in milliseconds to the microsecond.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func printReport(w io.Writer, r seatReport) {
	rank := ""
	if r.Rank > 0 {
		rank = fmt.Sprintf(", rank %d", r.Rank)
	}
	fmt.Fprintf(w, "match %s (%s), seat %d: %s%s\n", r.Match, r.Game, r.Seat, r.Name, rank)
	fmt.Fprintf(w, "decisions %d, answered %d; think time p50 %s, p99 %s, longest %s\n",
		r.Decisions, r.Answered, msText(r.ThinkP50), msText(r.ThinkP99), msText(r.ThinkMax))
	fmt.Fprintf(w, "timeouts %d%s\n", r.Timeouts, tally(r.Policies, "chosen by"))
	total := 0
	for _, n := range r.Rejections {
		total += n
	}
	fmt.Fprintf(w, "rejected answers %d%s\n", total, tally(r.Rejections, ""))
	if h := r.Hosted; h != nil {
		verdict := "no verdict"
		if h.Verdict != "" {
			verdict = "verdict " + h.Verdict
			if h.Detail != "" {
				verdict += ": " + h.Detail
			}
		}
		fmt.Fprintf(w, "hosted module version %d: %s; %d decisions, CPU %s\n", h.Version, verdict, h.Decisions, msText(h.CPUMillis))
	}
	if len(r.LastNotes) > 0 {
		fmt.Fprintf(w, "last notes:\n")
		for _, n := range r.LastNotes {
			fmt.Fprintf(w, "  step %d: %s\n", n.Step, strconv.Quote(n.Note))
		}
	}
}

func msText(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + " ms" }

// tally says counts by name, most first: " (3 illegal, 1 malformed)".
func tally(counts map[string]int, lead string) string {
	if len(counts) == 0 {
		return ""
	}
	parts := strings.Split(endCounts(counts), ", ")
	if lead != "" {
		lead += " "
	}
	return " (" + lead + strings.Join(parts, ", ") + ")"
}
