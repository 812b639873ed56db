// Package engine is the contract every Orrery game implements, and the registry of games.
//
// The shape follows OpenSpiel's spiel.h in three layers: a static description (Info), a
// configured game (Config passed to Game.New) and a State. A match is fully determined by
// (game, options, seat count, seed, action log): chance is drawn inside the engine from a
// seeded math/rand/v2 PCG, so replays and crash recovery re-run the log and store no snapshots.
//
// Engines import neither gRPC nor the service; they speak protobuf only through their own game
// messages (package orrery.<game>.v1), which carry no service definitions.
package engine

import (
	"errors"
	"time"

	"google.golang.org/protobuf/proto"
)

// Seat is a player's position in a match, counted from 0.
type Seat int

// Spectator is the seat of the public view: it sees only what every player may know.
const Spectator Seat = -1

// Action is one move in a game's own encoding: a small comparable value, free to copy and to
// keep in maps, that costs no allocation. Each game gives Kind and Arg their meaning through its
// own constructors and accessors; Kind 0 is never a legal action, so the zero Action is "none".
type Action struct {
	Kind uint16
	Arg  [15]int16
}

// IsZero reports whether a is the zero ("no") action.
func (a Action) IsZero() bool { return a == Action{} }

// The sentinel errors Apply wraps with detail. The service maps them to ActionRejected reasons.
var (
	ErrIllegalAction = errors.New("illegal action")
	ErrNotYourTurn   = errors.New("not your turn")
	ErrGameOver      = errors.New("game over")
	ErrBadNotation   = errors.New("bad action notation")
	ErrBadOption     = errors.New("bad game option")
)

// EndReason says why a game ended.
type EndReason int

const (
	EndNone    EndReason = iota // still running
	EndNormal                   // the rules ended it
	EndCap                      // the safety cap ended it (turns, rounds or ticks)
	EndForfeit                  // a seat forfeited (set by the service, never by an engine)
	EndAborted                  // the host stopped the match (set by the service)
)

func (r EndReason) String() string {
	switch r {
	case EndNormal:
		return "normal"
	case EndCap:
		return "cap"
	case EndForfeit:
		return "forfeit"
	case EndAborted:
		return "aborted"
	}
	return "none"
}

// Result is how a finished game scored. Ranks are 1-based and tied seats share a rank.
type Result struct {
	Ranks  []int
	Scores []float64
	Reason EndReason
	Detail string // a short human sentence: "Evil seat 2 eliminated seat 0"
}

// Winners lists the seats ranked first.
func (r Result) Winners() []Seat {
	var w []Seat
	for s, rank := range r.Ranks {
		if rank == 1 {
			w = append(w, Seat(s))
		}
	}
	return w
}

// Option describes one game option, with its default as text.
type Option struct {
	Name    string
	Default string
	Help    string
	// Data marks an option whose value is a data set. The engine takes it only inline (JSON);
	// a server may also accept a name and resolve it, from a directory its operator chose,
	// into the inline bytes it stores with the match, so no client ever names a server file
	// and no replay reads one.
	Data bool
}

// Info is a game's static description.
type Info struct {
	Name     string // registry key, lower case: "icetraders"
	Title    string // "IceTraders"
	MinSeats int
	MaxSeats int
	// Simultaneous is true when several seats may owe a decision at once.
	Simultaneous bool
	// RealTime is true for games that tick on a clock (Full-Contact Catan).
	RealTime bool
	Options  []Option
}

// Config configures one match of a game.
type Config struct {
	Seats   int
	Seed    uint64
	Options map[string]string // unknown names are an error wrapping ErrBadOption
}

// Game is a registered game: its description and a constructor of states.
type Game interface {
	Info() Info
	// New validates cfg and returns the starting state.
	New(cfg Config) (State, error)
	// Catalog is the game's static data for clients (geometry, maps, decks) as its own
	// protobuf message; nil if it has none.
	Catalog() proto.Message
}

// State is a game in progress. A State is not safe for concurrent use.
type State interface {
	// Seats is the number of seats in the match.
	Seats() int
	// ToAct appends to buf the seats that owe a decision now, in seat order: usually one,
	// several for simultaneous secret choices and ticks, and for reactions not always the seat
	// whose turn it is. It is empty once the game is terminal.
	ToAct(buf []Seat) []Seat
	// Legal appends seat's legal actions to buf in a stable order. Every listed action is
	// accepted by Apply. A seat that does not owe a decision has none.
	Legal(seat Seat, buf []Action) []Action
	// Apply plays a for seat. On error the state is unchanged and the error wraps one of
	// ErrIllegalAction, ErrNotYourTurn or ErrGameOver with a reason the seat may read: it
	// names nothing the seat may not know.
	Apply(seat Seat, a Action) error
	// Observe is seat's typed view (the game's Observation message), holding nothing seat
	// may not know. Observe(Spectator) is the public view.
	Observe(seat Seat) proto.Message
	// Render is the text form of Observe(seat), for logs, terminals and language-model bots.
	Render(seat Seat) string
	// EventCount is the number of events so far; events are numbered from 0.
	EventCount() int
	// Events appends to buf the typed events numbered from..EventCount()-1 as seat sees them
	// (the game's Event message), redacting what seat may not know.
	Events(seat Seat, from int, buf []proto.Message) []proto.Message
	// Terminal reports whether the game is over.
	Terminal() bool
	// Result is the outcome; valid once Terminal.
	Result() Result
	// Clone is a deep, independent copy, for search bots.
	Clone() State
	// MarshalBinary is the complete state, hidden information and random source included:
	// two states with equal bytes behave identically. It is omniscient, for tests and
	// checks, and is never sent to a seat.
	MarshalBinary() ([]byte, error)

	// FormatAction is a's canonical notation; ParseAction reads it back. Like ActionProto, it
	// depends on the action value alone, never on the state, so a server may cache both.
	FormatAction(a Action) string
	ParseAction(s string) (Action, error)
	// ActionProto is a as the game's typed Action message; ActionFromProto reads one back,
	// rejecting malformed messages with an error wrapping ErrIllegalAction.
	ActionProto(a Action) proto.Message
	ActionFromProto(m proto.Message) (Action, error)
}

// Omniscient is implemented by states that can show everything, for finished matches only.
type Omniscient interface {
	ObserveAll() proto.Message
}

// Defaulter is implemented by games that have a natural default action for a seat (a pass),
// used by the timeout policy "default".
type Defaulter interface {
	DefaultAction(seat Seat) (Action, bool)
}

// Ticker is implemented by real-time games (Full-Contact Catan). In lockstep such a game
// lists every seat in ToAct at each tick and resolves the tick once all have acted. On the
// wall clock (the game's option clock=wall) only Advance resolves a tick: the server calls it
// every AdvanceAfter, and seats that have not acted keep their last intents; other steps (a
// market) still resolve once every seat has answered. A log records an Advance as a Step by
// Spectator with the zero Action.
type Ticker interface {
	Advance() error
	// AdvanceAfter is how long the current step lasts on the wall clock (a tick, a market).
	AdvanceAfter() time.Duration
	// Step identifies the current wall-clock step: it changes whenever a step resolves, by
	// Advance or because every seat answered. A seat that has answered in a step is not asked
	// again until the next one.
	Step() int64
}

// ObservationRenderer is implemented by states whose text form is drawn from their typed
// observation, so that a server which has built Observe(seat) does not build it again.
type ObservationRenderer interface {
	// RenderObservation is Render for the seat whose observation obs is.
	RenderObservation(obs proto.Message) string
}

// ObservationAppender is implemented by states that can draw an observation's text into a
// buffer of the caller's: a server draws a text for every decision, and can draw it in the
// memory of the seat's last one.
type ObservationAppender interface {
	// AppendObservation appends RenderObservation(obs) to dst and returns the extended buffer.
	AppendObservation(dst []byte, obs proto.Message) []byte
}

// Reobserver is implemented by states that can build a view in the memory of an earlier one
// that nobody reads any more: a server builds a seat's view for every decision, and the
// view was most of a decision's allocations.
type Reobserver interface {
	// ObserveInto is Observe(seat), built in *scratch, which the caller keeps between calls
	// (nil at first) and which holds whatever the game reuses. The view an earlier call
	// returned with the same scratch is overwritten: the caller must be done with it.
	ObserveInto(seat Seat, scratch *any) proto.Message
}

// PublicEvents is implemented by games that can tell when their events read alike for every
// viewer, so that a server builds them once for all the seats that are sent them.
type PublicEvents interface {
	// EventsPublic reports whether Events(seat, from, nil) is the same for every seat and for
	// Spectator: no event from on is redacted for anyone.
	EventsPublic(from int) bool
}

// Budgeter is implemented by games that want some decisions answered faster than the match's
// per-move budget, such as a reaction window. The server gives such a decision the shorter
// budget, without the seat's time bank, and the timeout policy then acts as for any other.
type Budgeter interface {
	// Budget is the time seat has for the decision it owes now; 0 means the match's clock.
	Budget(seat Seat) time.Duration
}
