package ladder

import (
	"context"
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

// HostedVersion is the newest version of hosted bot name's module, which a tournament
// created now pins; 0 if name has none.
func (l *Ladder) HostedVersion(ctx context.Context, name string) (int, error) {
	if l.cfg.Hosted == nil {
		return 0, nil
	}
	mods, err := l.cfg.DB.Modules(ctx, name)
	if err != nil || len(mods) == 0 {
		return 0, err
	}
	return mods[0].Version, nil
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
// A hosted bot is played by the ladder itself, version of its module (the one the
// tournament pinned when it was created: HostedVersion), or its newest if version is 0.
func (l *Ladder) SeatTournament(matchID string, seats, seat int, name, token string, version int) error {
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
	if h := l.hostedLocked(name); h != nil || version > 0 && l.cfg.Hosted != nil {
		// A hosted bot: the ladder plays it itself.
		if lm.house[seat] == nil {
			hh := l.hostedHouse(name, "", version)
			h = &hh
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
