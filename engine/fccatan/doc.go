// Package fccatan is Full-Contact Catan (rules/full-contact-catan.md): Catan as a field sport,
// simulated in fixed ticks on a continuous field, every team acting at once.
//
// A seat is a team of 3 or 4 avatars. All arithmetic is integer: positions in centimetres
// (int32; the default field is 6000 x 4000 cm, so targets fit an Action's int16 arguments),
// velocities in cm/s, the integer square root for distances. Chance (the deck's order, ties
// between equally near players) comes from the match's PCG, so a seed and an action log give
// the same match bit for bit.
//
// Rulesets and maps: the seed's ruleset plays on the default 60 x 40 m field, the published
// one on its own map, the default scaled by 0.6 (36 x 24 m, the hoop radius unchanged). At
// creation a match is refused (reach.go) unless, from every start hoop, the nearest pile of
// every resource can be reached and its ball delivered back within one round at top speed:
// on the full-size field the published 8-second round cannot fetch ore or sheep (issue 11).
// Throws obey the one-resource-per-round rule: a player who has collected may not catch, and
// a catch is the catcher's collection.
//
// Phases: setup (teams in seat order pick a start hoop and name knights), then rounds. A round
// is a deploy step (only teams with a choice of hoops answer), ticks, the whistle, and the
// market: trade_steps offer-and-reply steps, a simultaneous purchase declaration, card
// decisions (Year of Plenty, Monopoly, Barbarians by the buyer; the Robber's discards by every
// team holding balls). Every simultaneous step lists in ToAct the teams that have not answered
// and resolves when the last answers (lockstep; see the clock option for ticks).
//
// Real time: State implements engine.Ticker. Advance resolves the current step at once; in a
// tick a team that sent nothing keeps its standing intents, elsewhere it takes DefaultAction
// (no offer, no purchase, ...). TickInterval is the wall-clock tick (also a package function of
// the options, for a server with no state yet) and AdvanceAfter the wall-clock length of the
// current decision (a tick, a share of the market's minute, or the choice time).
//
// The clock option: lockstep (the default) is the above. Under wall only Advance resolves a
// tick: Apply merely records a team's intents for the current tick, ToAct lists every team for
// the whole tick, and a team may send again (its latest intents count); intents sent after a
// tick resolved apply to the next. Deployment, markets and card decisions resolve as in
// lockstep, when every team has answered or on Advance.
//
// An intents Action packs, for avatar i, Arg[3i] and Arg[3i+1] (a target in cm with flagTo, a
// velocity in cm/s with flagVel, zero to stand) and Arg[3i+2] the flags: pick up, place, tag
// (with an optional named target), throw (published ruleset). Intents are standing orders:
// they hold until replaced and are cleared at the whistle. Legal lists "keep every intent" and
// each change of one free player's intent to a useful order (a pile of each resource, home to a
// city, a free hoop to place in, a chase); Apply accepts any valid intent.
package fccatan
