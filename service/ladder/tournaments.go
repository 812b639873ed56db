package ladder

import (
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Registered reports whether name is a registered bot that may play: not a house bot, not
// revoked.
func (l *Ladder) Registered(name string) bool {
	b := l.botByName(name)
	l.mu.Lock()
	defer l.mu.Unlock()
	return b != nil && !b.house && !b.revoked
}

// Connected reports whether bot name has an open ladder stream.
func (l *Ladder) Connected(name string) bool {
	b := l.botByName(name)
	l.mu.Lock()
	here := b != nil && (l.conns[b.id] != nil || l.hostedLocked(name) != nil) // a hosted bot is always here
	l.mu.Unlock()
	if b != nil && !here && l.cfg.Cluster != nil {
		return l.connectedCluster(b.id)
	}
	return here
}

// SeatTournament has registered bot name play seat of a tournament's match (of seats seats)
// with token, on its ladder stream: at once if the bot is connected, otherwise as soon as it
// connects, until the match ends. The seat is not rated and does not count towards a pause,
// and it is seated whatever room the stream has left (it does take room from matchmaking).
// Seating a seat that already plays does nothing, so a restarted tournament may seat again.
func (l *Ladder) SeatTournament(matchID string, seats, seat int, name, token string) error {
	if seat < 0 || seat >= seats {
		return fmt.Errorf("seat %d of %d", seat, seats)
	}
	if l.cfg.Cluster != nil {
		// The node of the bot's stream plays it, or the node it joins next.
		b := l.botByName(name)
		switch {
		case l.ctx.Err() != nil || !l.isStarted():
			return errNotLadder
		case b == nil || b.house:
			return status.Errorf(codes.NotFound, "no registered bot %q", name)
		}
		return l.seatTournamentCluster(matchID, seats, seat, b, token)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ctx.Err() != nil || !l.isStarted() {
		return errNotLadder
	}
	b := l.byName[name]
	if b == nil || b.house {
		return status.Errorf(codes.NotFound, "no registered bot %q", name)
	}
	lm := l.live[matchID]
	if lm == nil {
		lm = &liveMatch{id: matchID, tournament: true, bots: make([]int64, seats), house: make([]*House, seats),
			tokens: make([]string, seats), runner: make([]*conn, seats)}
		l.live[matchID] = lm
		l.wg.Add(1)
		go l.watch(lm)
	}
	if !lm.tournament || len(lm.bots) != seats {
		return status.Errorf(codes.FailedPrecondition, "match %s is not a tournament match of %d seats", matchID, seats)
	}
	if lm.bots[seat] == b.id && lm.runner[seat] != nil {
		return nil
	}
	if lm.bots[seat] != 0 && lm.bots[seat] != b.id {
		return status.Errorf(codes.FailedPrecondition, "seat %d of match %s is another bot's", seat, matchID)
	}
	lm.bots[seat], lm.tokens[seat] = b.id, token
	if h := l.hostedLocked(name); h != nil {
		// A hosted bot: the ladder plays it itself, its newest module.
		if lm.house[seat] == nil {
			lm.house[seat] = h
			l.wg.Add(1)
			go l.playHouse(lm, seat, h)
		}
		return nil
	}
	if c := l.conns[b.id]; c != nil && c.alive() {
		lm.runner[seat] = c
		c.active++
		c.startSeatLocked(lm, seat)
		l.requeueLocked(c) // with less room
	}
	return nil
}
