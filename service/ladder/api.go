package ladder

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/auth"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
)

// Errors become gRPC codes here, at the boundary.
var (
	errBadKey    = status.Error(codes.Unauthenticated, "unknown or revoked API key")
	errNoKey     = status.Error(codes.Unauthenticated, `this call needs "authorization: bearer <api key>"`)
	errNeedAdmin = status.Error(codes.PermissionDenied, "this call needs the server's admin key")
	errNotYours  = status.Error(codes.PermissionDenied, "a bot's key acts only for that bot")
	errHouse     = status.Error(codes.FailedPrecondition, "house bots belong to the server")
	validName    = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{1,31}$`)
)

// caller is who a call's bearer key names: the admin, a bot, or nobody.
type caller struct {
	admin bool
	bot   *bot
}

// bearer is the call's bearer key, if any.
func bearer(ctx context.Context) (string, bool) {
	key, err := auth.AuthFromMD(ctx, "bearer")
	return key, err == nil && key != ""
}

func (l *Ladder) isAdmin(key string) bool {
	return l.cfg.AdminKey != "" && subtle.ConstantTimeCompare([]byte(key), []byte(l.cfg.AdminKey)) == 1
}

// botByKey is the bot whose API key is key, nil if none (or revoked). On a cluster, a key
// not known here is looked for again after reading the bots other nodes registered.
func (l *Ladder) botByKey(key string) *bot {
	h := hashKey(key)
	l.mu.Lock()
	b := l.byKey[h]
	l.mu.Unlock()
	if b == nil && l.cfg.Cluster != nil && l.reload(l.ctx) == nil {
		l.mu.Lock()
		b = l.byKey[h]
		l.mu.Unlock()
	}
	return b
}

// botByName is the bot called name, nil if none; on a cluster, looked for again after
// reading the bots other nodes registered.
func (l *Ladder) botByName(name string) *bot {
	l.mu.Lock()
	b := l.byName[name]
	l.mu.Unlock()
	if b == nil && l.cfg.Cluster != nil && l.reload(l.ctx) == nil {
		l.mu.Lock()
		b = l.byName[name]
		l.mu.Unlock()
	}
	return b
}

// whoCalls names the caller; a bearer key that is neither the admin's nor a live bot's is
// Unauthenticated.
func (l *Ladder) whoCalls(ctx context.Context) (caller, error) {
	key, ok := bearer(ctx)
	if !ok {
		return caller{}, nil
	}
	if l.isAdmin(key) {
		return caller{admin: true}, nil
	}
	if b := l.botByKey(key); b != nil {
		return caller{bot: b}, nil
	}
	return caller{}, errBadKey
}

// authenticate is the bot a ladder stream's key names.
func (l *Ladder) authenticate(ctx context.Context) (*bot, error) {
	key, ok := bearer(ctx)
	if !ok {
		return nil, errNoKey
	}
	if b := l.botByKey(key); b != nil {
		return b, nil
	}
	return nil, errBadKey
}

// Authorizer is the server's auth check with bot keys: a LadderService call or a Play
// stream that carries a bearer key which is neither a live bot's nor the admin's is refused
// (Unauthenticated) at once, so a revoked key gets no further. Each ladder call then checks
// what its caller may do. Every call also goes through next (service.AdminKey, say), so the
// existing admin behaviour composes; nil next allows the rest.
func (l *Ladder) Authorizer(next service.Authorizer) service.Authorizer {
	return func(ctx context.Context, method string) (context.Context, error) {
		if strings.HasPrefix(method, "/"+orreryv1.LadderService_ServiceDesc.ServiceName+"/") || method == orreryv1.ArenaService_Play_FullMethodName {
			if _, err := l.whoCalls(ctx); err != nil {
				return nil, err
			}
		}
		if next != nil {
			return next(ctx, method)
		}
		return ctx, nil
	}
}

// actFor is the bot a caller may act for: the admin for any bot, a bot for itself.
func (l *Ladder) actFor(ctx context.Context, name string) (*bot, error) {
	who, err := l.whoCalls(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case who.admin:
	case who.bot == nil:
		return nil, errNoKey
	case name == "":
		name = who.bot.name
	case name != who.bot.name:
		return nil, errNotYours
	}
	b := l.botByName(name)
	if b == nil {
		return nil, status.Errorf(codes.NotFound, "no bot %q", name)
	}
	if b.house {
		return nil, errHouse
	}
	return b, nil
}

func (l *Ladder) needAdmin(ctx context.Context) error {
	if l.cfg.AdminKey == "" {
		return nil
	}
	who, err := l.whoCalls(ctx)
	if err != nil {
		return err
	}
	if !who.admin {
		return errNeedAdmin
	}
	return nil
}

// RegisterBot creates a bot identity and returns its API key, once.
func (l *Ladder) RegisterBot(ctx context.Context, req *orreryv1.RegisterBotRequest) (*orreryv1.RegisterBotResponse, error) {
	if err := l.needAdmin(ctx); err != nil {
		return nil, err
	}
	name := req.GetName()
	if !validName.MatchString(name) {
		return nil, status.Errorf(codes.InvalidArgument, "bot name %q: want 2 to 32 of a-z 0-9 - _ . starting with a letter or digit", name)
	}
	if strings.HasPrefix(name, "house-") {
		return nil, status.Errorf(codes.InvalidArgument, "bot name %q: names beginning house- are the server's", name)
	}
	if len(req.GetDescription()) > 500 {
		return nil, status.Error(codes.InvalidArgument, "description longer than 500 bytes")
	}
	var raw [32]byte
	rand.Read(raw[:])
	key := "ork_" + base64.RawURLEncoding.EncodeToString(raw[:])
	b := &bot{botRow: botRow{name: name, description: req.GetDescription(), keyHash: hashKey(key), created: l.now()},
		ratings: make(map[string]storedRating)}
	l.mu.Lock()
	defer l.mu.Unlock() // held across the insert, so two registrations of one name cannot race
	if _, taken := l.byName[name]; taken {
		return nil, status.Errorf(codes.AlreadyExists, "bot %q is registered", name)
	}
	if err := l.db.insertBot(ctx, &b.botRow); err != nil {
		return nil, status.Errorf(codes.Internal, "register %s: %v", name, err)
	}
	l.addBotLocked(b)
	l.log.Info("ladder bot registered", "bot", name)
	return &orreryv1.RegisterBotResponse{Bot: l.infoLocked(b), ApiKey: key}, nil
}

// RevokeBot disables a bot's key at once and closes its ladder stream.
func (l *Ladder) RevokeBot(ctx context.Context, req *orreryv1.RevokeBotRequest) (*orreryv1.RevokeBotResponse, error) {
	b, err := l.actFor(ctx, req.GetName())
	if err != nil {
		return nil, err
	}
	if err := l.db.revokeBot(ctx, b.id, l.now()); err != nil {
		return nil, status.Errorf(codes.Internal, "revoke %s: %v", b.name, err)
	}
	l.mu.Lock()
	b.revoked = true
	delete(l.byKey, b.keyHash)
	c := l.conns[b.id]
	l.queue.Remove(b.id)
	info := l.infoLocked(b)
	l.mu.Unlock()
	if c != nil {
		c.stop(errRevoked)
	}
	l.log.Info("ladder bot revoked", "bot", b.name)
	return &orreryv1.RevokeBotResponse{Bot: info}, nil
}

// ResumeBot lifts a pause early.
func (l *Ladder) ResumeBot(ctx context.Context, req *orreryv1.ResumeBotRequest) (*orreryv1.ResumeBotResponse, error) {
	b, err := l.actFor(ctx, req.GetName())
	if err != nil {
		return nil, err
	}
	if err := l.db.setPause(ctx, b.id, time.Time{}, "", 0); err != nil {
		return nil, status.Errorf(codes.Internal, "resume %s: %v", b.name, err)
	}
	l.mu.Lock()
	b.pausedUntil, b.pauseReason, b.timeoutStreak = time.Time{}, "", 0
	if c := l.conns[b.id]; c != nil && c.paused {
		c.paused = false
		l.requeueLocked(c)
	}
	info := l.infoLocked(b)
	l.mu.Unlock()
	wake(l.kick)
	return &orreryv1.ResumeBotResponse{Bot: info}, nil
}

// connectedLocked says whether b is connected: a registered bot with an open ladder stream
// (here or on another node), or a house bot while the server plays it in a match (it has
// no stream: the server is its connection). l.mu is held.
func (l *Ladder) connectedLocked(b *bot) bool {
	if b.revoked {
		return false // its stream is being closed, if it is not already
	}
	if l.conns[b.id] != nil || l.cl.connected[b.id] {
		return true
	}
	if b.house {
		for _, lm := range l.live {
			if slices.Contains(lm.bots, b.id) {
				return true
			}
		}
	}
	return false
}

// infoLocked describes b. l.mu is held.
func (l *Ladder) infoLocked(b *bot) *orreryv1.BotInfo {
	info := &orreryv1.BotInfo{
		Name: b.name, Description: b.description, House: b.house, Created: timestamppb.New(b.created),
		Revoked: b.revoked, TimeoutStreak: int32(b.timeoutStreak), Connected: l.connectedLocked(b),
		QueuedGames: slices.Clone(l.queue.Waiting(b.id)),
	}
	if !b.pausedUntil.IsZero() && l.now().Before(b.pausedUntil) {
		info.Paused, info.PauseReason, info.PausedUntil = true, b.pauseReason, timestamppb.New(b.pausedUntil)
	}
	for id, lm := range l.live {
		if slices.Contains(lm.bots, b.id) {
			info.LiveMatchIds = append(info.LiveMatchIds, id)
		}
	}
	sort.Strings(info.LiveMatchIds)
	return info
}

func ratingProto(game string, r storedRating) *orreryv1.BotRating {
	return &orreryv1.BotRating{Game: game, Mu: r.Mu, Sigma: r.Sigma, Score: r.Score(), Games: int32(r.games), Wins: int32(r.wins), LastMatchId: r.lastMatch,
		Provisional: r.Provisional()}
}

// GetBot describes a bot, its ratings and its recent rated matches.
func (l *Ladder) GetBot(ctx context.Context, req *orreryv1.GetBotRequest) (*orreryv1.GetBotResponse, error) {
	n := int(req.GetRecentMatches())
	if n < 0 || n > 500 {
		return nil, status.Errorf(codes.InvalidArgument, "recent_matches %d out of range 0..500", n)
	}
	if n == 0 {
		n = 20
	}
	name := req.GetName()
	who, err := l.whoCalls(ctx)
	if err != nil && name == "" {
		return nil, err
	}
	if name == "" { // the caller's own bot
		if who.bot == nil {
			return nil, status.Error(codes.InvalidArgument, "name is required (or call with a bot's API key)")
		}
		name = who.bot.name
	}
	// A hosted bot's stderr is its owner's alone: the call must carry its key or the admin's.
	own := err == nil && (who.admin || who.bot != nil && who.bot.name == name)
	l.botByName(name) // on a cluster, reads a bot registered through another node
	l.mu.Lock()
	b := l.byName[name]
	if b == nil {
		l.mu.Unlock()
		return nil, status.Errorf(codes.NotFound, "no bot %q", name)
	}
	resp := &orreryv1.GetBotResponse{Bot: l.infoLocked(b)}
	for game, r := range b.ratings {
		resp.Ratings = append(resp.Ratings, ratingProto(game, r))
	}
	id := b.id
	l.mu.Unlock()
	sort.Slice(resp.Ratings, func(i, j int) bool { return resp.Ratings[i].Game < resp.Ratings[j].Game })
	rows, err := l.db.QueryContext(ctx, `SELECT match_id, game, seat, seats, rank, mu_before, sigma_before, mu_after, sigma_after, rated_ns
		FROM ladder_rating_changes WHERE bot_id = ? ORDER BY rated_ns DESC, match_id DESC LIMIT ?`, id, n)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "bot %s: %v", name, err)
	}
	defer rows.Close()
	for rows.Next() {
		var m orreryv1.RatedMatch
		var rated int64
		if err := rows.Scan(&m.MatchId, &m.Game, &m.Seat, &m.Seats, &m.Rank, &m.MuBefore, &m.SigmaBefore, &m.MuAfter, &m.SigmaAfter, &rated); err != nil {
			return nil, status.Errorf(codes.Internal, "bot %s: %v", name, err)
		}
		m.Rated = timestamppb.New(time.Unix(0, rated))
		resp.Recent = append(resp.Recent, &m)
	}
	if err := rows.Err(); err != nil {
		return nil, status.Errorf(codes.Internal, "bot %s: %v", name, err)
	}
	if err := l.addHosted(ctx, name, req.GetMatchId(), own, resp); err != nil {
		return nil, status.Errorf(codes.Internal, "bot %s: %v", name, err)
	}
	return resp, nil
}

// ListBots lists the bots by name.
func (l *Ladder) ListBots(ctx context.Context, req *orreryv1.ListBotsRequest) (*orreryv1.ListBotsResponse, error) {
	size := int(req.GetPageSize())
	if size < 0 || size > 1000 {
		return nil, status.Errorf(codes.InvalidArgument, "page_size %d out of range 0..1000", size)
	}
	if size == 0 {
		size = 100
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	names := make([]string, 0, len(l.byName))
	for name, b := range l.byName {
		if name > req.GetPageToken() && !(req.GetExcludeHouse() && b.house) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	resp := &orreryv1.ListBotsResponse{}
	if len(names) > size {
		names = names[:size]
		resp.NextPageToken = names[size-1]
	}
	for _, name := range names {
		resp.Bots = append(resp.Bots, l.infoLocked(l.byName[name]))
	}
	return resp, nil
}

// GetLeaderboard ranks a game's bots by conservative score, mu - 3 sigma.
func (l *Ladder) GetLeaderboard(ctx context.Context, req *orreryv1.GetLeaderboardRequest) (*orreryv1.GetLeaderboardResponse, error) {
	size := int(req.GetPageSize())
	if size < 0 || size > 1000 {
		return nil, status.Errorf(codes.InvalidArgument, "page_size %d out of range 0..1000", size)
	}
	if size == 0 {
		size = 100
	}
	games := l.games
	if g := req.GetGame(); g != "" {
		if !slices.Contains(l.games, g) {
			return nil, status.Errorf(codes.NotFound, "the ladder runs no game %q (it runs %s)", g, strings.Join(l.games, ", "))
		}
		games = []string{g}
	}
	resp := &orreryv1.GetLeaderboardResponse{}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, game := range games {
		var board []*orreryv1.LeaderboardEntry
		for _, b := range l.bots {
			r, ok := b.ratings[game]
			if !ok || (req.GetExcludeHouse() && b.house) {
				continue
			}
			board = append(board, &orreryv1.LeaderboardEntry{
				Game: game, Bot: b.name, House: b.house, Mu: r.Mu, Sigma: r.Sigma, Score: r.Score(), Provisional: r.Provisional(),
				Games: int32(r.games), Wins: int32(r.wins), LastMatchId: r.lastMatch,
				Connected: l.connectedLocked(b), Paused: !b.pausedUntil.IsZero() && l.now().Before(b.pausedUntil),
				Revoked: b.revoked,
			})
		}
		sort.Slice(board, func(i, j int) bool {
			a, b := board[i], board[j]
			if a.Score != b.Score {
				return a.Score > b.Score
			}
			if a.Games != b.Games {
				return a.Games > b.Games
			}
			return a.Bot < b.Bot
		})
		if len(board) > size {
			board = board[:size]
		}
		for i, e := range board {
			e.Rank = int32(i + 1)
		}
		resp.Entries = append(resp.Entries, board...)
	}
	return resp, nil
}

// CallerBot is the registered bot whose key the call carries (service.CallerBots): a bot
// reads the notes of the seats it plays.
func (l *Ladder) CallerBot(ctx context.Context) (int64, bool) {
	who, err := l.whoCalls(ctx)
	if err != nil || who.bot == nil {
		return 0, false
	}
	return who.bot.id, true
}
