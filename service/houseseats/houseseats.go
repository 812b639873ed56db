// Package houseseats plays built-in bots in the seats of new matches, so that a person can
// play against them from the web page (CreateMatchRequest.bots). Each bot plays through the
// same seat logic as a bot on a Play stream (ladder.PlayInProcess), in process. After a
// restart the server seats each match's bots again (service's resume), before Start: those
// seats wait for it.
package houseseats

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"log/slog"
	"sync"

	"github.com/orrery/orrery/service/ladder"
)

// NewBot makes a built-in bot of a game (builtin.New).
type NewBot func(game, name string, seed uint64) (ladder.Player, error)

// Seats plays bots in seats until each seat's match ends or Close.
type Seats struct {
	newBot NewBot
	names  func(game string) []string
	log    *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex // guards arena and waiting
	arena   ladder.Seats
	waiting []seated // seated before Start: the matches a restarted server resumes
}

// seated is a bot given its seat's token.
type seated struct {
	game, bot, token string
	p                ladder.Player
}

// New seats the bots newBot makes; names lists each game's.
func New(newBot NewBot, names func(game string) []string, logger *slog.Logger) *Seats {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Seats{newBot: newBot, names: names, log: logger, ctx: ctx, cancel: cancel}
}

// Start gives the seats the arena whose matches they play (the server, once it exists), and
// plays the seats given before.
func (s *Seats) Start(arena ladder.Seats) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.arena = arena
	for _, w := range s.waiting {
		s.play(arena, w)
	}
	s.waiting = nil
}

// Bots are the built-in bots of game.
func (s *Seats) Bots(game string) []string { return s.names(game) }

// Seat has bot play the seat that token names, from now (or from Start) until the match
// ends.
func (s *Seats) Seat(game, bot, token string) error {
	if s.ctx.Err() != nil {
		return fmt.Errorf("houseseats: closed")
	}
	// The bot's own choices are seeded apart from the match's: its moves are in the log.
	var b [8]byte
	rand.Read(b[:])
	p, err := s.newBot(game, bot, binary.BigEndian.Uint64(b[:]))
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := seated{game: game, bot: bot, token: token, p: p}
	if s.arena == nil {
		s.waiting = append(s.waiting, w)
		return nil
	}
	s.play(s.arena, w)
	return nil
}

// play plays w's seat until its match ends or Close.
func (s *Seats) play(arena ladder.Seats, w seated) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := ladder.PlayInProcess(s.ctx, arena, w.token, w.p, 0); err != nil && s.ctx.Err() == nil {
			s.log.Warn("houseseats: bot seat stopped", "game", w.game, "bot", w.bot, "err", err)
		}
	}()
}

// Close stops every bot and waits for them.
func (s *Seats) Close() {
	s.cancel()
	s.wg.Wait()
}
