package tournament

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// entrant is one entrant of a server-run tournament: a registered bot, or a built-in bot.
type entrant struct {
	Name    string `json:"name"`              // as the matches name its seats
	Builtin string `json:"builtin,omitempty"` // the built-in bot; empty for a registered bot
	// Module is the version of a hosted bot's module the tournament plays, the newest when
	// it was created: an upload meanwhile does not change its seats. 0: not hosted then.
	Module int `json:"module,omitempty"`
}

// run is a server-run tournament. Its fields after spec are guarded by Service.mu, except
// the change signal.
type run struct {
	id       string
	spec     *orreryv1.CreateTournamentRequest // as stored: seats, games, parallel and seed filled in
	entrants []entrant
	created  time.Time
	finished time.Time
	seats    int
	per      int // matches per set: seats with duplicate, else 1
	total    int // matches in the whole schedule
	parallel int

	slots   []*slot // the schedule drawn so far, in order
	running int

	// Swiss state, rebuilt from the stored rounds on load.
	points []float64
	byes   []int
	met    map[[2]int]int
	// legacySeeds: drawn before the one-way seeds (seeds.legacy), found on load.
	legacySeeds bool

	changeMu sync.Mutex
	changed  chan struct{} // closed and replaced at every change, for watchers
}

// slot is one match of the schedule.
type slot struct {
	seq, round, set int
	entrants        []int // entrant index by seat
	seed            uint64
	matchID         string
	tokens          []string
	ranks           []int
	forfeited       []int // seats that forfeited by absence
	reason          orreryv1.EndReason
	ended           bool
	started         bool // a player has taken it (in memory)
}

func newRun(id string, spec *orreryv1.CreateTournamentRequest, entrants []entrant, created time.Time) *run {
	r := &run{id: id, spec: spec, entrants: entrants, created: created, seats: int(spec.GetSeats()),
		parallel: int(spec.GetParallel()), changed: make(chan struct{})}
	r.per = 1
	if spec.GetDuplicate() {
		r.per = r.seats
	}
	r.total = (int(spec.GetGames()) + r.per - 1) / r.per * r.per
	k := len(entrants)
	r.points, r.byes, r.met = make([]float64, k), make([]int, k), map[[2]int]int{}
	return r
}

func (r *run) swiss() bool {
	return r.spec.GetFormat() == orreryv1.TournamentFormat_TOURNAMENT_FORMAT_SWISS
}

// drawFirst draws a new tournament's schedule: the whole round robin, or Swiss round 0.
func (r *run) drawFirst() {
	if r.swiss() {
		r.drawSwissLocked()
		return
	}
	for _, l := range roundRobin(len(r.entrants), r.seats, int(r.spec.GetGames()), r.spec.GetDuplicate(), r.seeds()) {
		r.addSlot(l)
	}
}

func (r *run) addSlot(l Lineup) {
	r.slots = append(r.slots, &slot{seq: len(r.slots), round: l.Round, set: l.Set, entrants: l.Entrants, seed: l.Seed})
}

// drawSwissLocked draws the next Swiss round from the points so far.
func (r *run) drawSwissLocked() {
	round := 0
	if n := len(r.slots); n > 0 {
		round = r.slots[n-1].round + 1
	}
	// Points from every match so far: a round is drawn once the rounds before it have ended.
	clear(r.points)
	for _, sl := range r.slots {
		for seat, e := range sl.entrants {
			if seat < len(sl.ranks) && r.seats > 1 {
				r.points[e] += float64(r.seats-sl.ranks[seat]) / float64(r.seats-1)
			}
		}
	}
	tables := min(len(r.entrants)/r.seats, (r.total-len(r.slots))/r.per)
	for _, l := range swissRound(round, r.points, r.byes, r.met, r.seats, tables, r.spec.GetDuplicate(), r.seeds()) {
		r.addSlot(l)
	}
}

// seeds is the derivation of r's seeds and draws.
func (r *run) seeds() seeds { return seeds{tournament: r.spec.GetSeed(), legacy: r.legacySeeds} }

// redraw rebuilds a loaded Swiss tournament's points, byes and meetings by drawing its
// stored rounds again (the draw is a function of the seed and the results before it), and
// checks that the draws agree with what was stored. A Swiss tournament drawn before the
// one-way seeds redraws with the legacy derivation, and goes on with it.
func (r *run) redraw() error {
	err := r.redrawWith(false)
	if err != nil && r.swiss() && len(r.slots) > 0 {
		if r.redrawWith(true) == nil {
			return nil
		}
	}
	return err
}

func (r *run) redrawWith(legacy bool) error {
	r.legacySeeds = legacy
	for i, sl := range r.slots {
		sl.started = sl.matchID != "" || sl.ended
		if sl.seq != i {
			return fmt.Errorf("schedule has a gap at %d", i)
		}
	}
	if !r.swiss() {
		return nil
	}
	stored := r.slots
	defer func() { r.slots = stored }()
	r.slots = nil
	r.points, r.byes, r.met = make([]float64, len(r.entrants)), make([]int, len(r.entrants)), map[[2]int]int{}
	for len(r.slots) < len(stored) {
		from := len(r.slots)
		r.drawSwissLocked()
		if len(r.slots) == from || len(r.slots) > len(stored) {
			return fmt.Errorf("swiss round %d does not redraw as stored", stored[from].round)
		}
		for i := from; i < len(r.slots); i++ {
			if !slices.Equal(r.slots[i].entrants, stored[i].entrants) || r.slots[i].seed != stored[i].seed {
				return fmt.Errorf("swiss round %d does not redraw as stored", stored[i].round)
			}
		}
		copy(r.slots[from:], stored[from:len(r.slots)]) // with their results, for the next draw
	}
	return nil
}

// setEnded reports whether every match of sl's duplicate set has ended.
func (r *run) setEnded(sl *slot) bool {
	for _, o := range r.slots {
		if o.round == sl.round && o.set == sl.set && !o.ended {
			return false
		}
	}
	return true
}

func (r *run) ended() int {
	n := 0
	for _, sl := range r.slots {
		if sl.ended {
			n++
		}
	}
	return n
}

// notify wakes the watchers.
func (r *run) notify() {
	r.changeMu.Lock()
	close(r.changed)
	r.changed = make(chan struct{})
	r.changeMu.Unlock()
}

func (r *run) changes() <-chan struct{} {
	r.changeMu.Lock()
	defer r.changeMu.Unlock()
	return r.changed
}

// outcomes is the ended matches, for the standings.
func (r *run) outcomes() []Outcome {
	var out []Outcome
	for _, sl := range r.slots {
		if !sl.ended || len(sl.ranks) == 0 {
			continue
		}
		o := Outcome{Names: make([]string, len(sl.entrants)), Ranks: sl.ranks}
		for seat, e := range sl.entrants {
			o.Names[seat] = r.entrants[e].Name
		}
		out = append(out, o)
	}
	return out
}

// protoLocked describes r; with matches, its schedule too. Service.mu is held.
func (r *run) protoLocked(matches bool) *orreryv1.Tournament {
	names := make([]string, len(r.entrants))
	for i, e := range r.entrants {
		names[i] = e.Name
	}
	t := &orreryv1.Tournament{
		TournamentId: r.id, Game: r.spec.GetGame(), Format: r.spec.GetFormat(), Seats: int32(r.seats),
		Entrants: names, Duplicate: r.spec.GetDuplicate(), Started: timestamppb.New(r.created),
		Standings: standingsProto(Standings(names, r.outcomes())), Status: orreryv1.TournamentStatus_TOURNAMENT_STATUS_RUNNING,
		MatchesTotal: int32(r.total), MatchesEnded: int32(r.ended()), MatchesRunning: int32(r.running),
		Options: r.spec.GetOptions(), Clock: r.spec.GetClock(), TimeoutPolicy: r.spec.GetTimeoutPolicy(),
		Absent: r.spec.GetAbsent(), Parallel: int32(r.parallel),
	}
	if !r.finished.IsZero() {
		t.Status, t.Finished, t.Seed, t.MatchesRunning = orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED, timestamppb.New(r.finished), r.spec.GetSeed(), 0
	}
	for _, sl := range r.slots {
		if sl.matchID != "" {
			t.MatchIds = append(t.MatchIds, sl.matchID)
		}
		if !matches {
			continue
		}
		m := &orreryv1.TournamentMatch{Seq: int32(sl.seq), Round: int32(sl.round), Set: int32(sl.set), MatchId: sl.matchID, Ended: sl.ended,
			EndReason: sl.reason}
		for _, e := range sl.entrants {
			m.Entrants = append(m.Entrants, r.entrants[e].Name)
		}
		for _, rk := range sl.ranks {
			m.Ranks = append(m.Ranks, int32(rk))
		}
		for _, seat := range sl.forfeited {
			m.Forfeited = append(m.Forfeited, r.entrants[sl.entrants[seat]].Name)
		}
		t.Matches = append(t.Matches, m)
	}
	if !matches {
		t.MatchIds = nil
	}
	return t
}
