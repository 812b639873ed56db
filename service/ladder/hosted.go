package ladder

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/hosted"
	"github.com/orrery/orrery/service/match"
	"github.com/orrery/orrery/service/store"
)

// Hosted is the server's hosted bots (service/hosted.Library): modules the ladder seats
// itself, beside its house bots. nil: the server hosts none.
type Hosted interface {
	Upload(ctx context.Context, bot string, games []string, wasm []byte) (*store.Module, error)
	PlaySeat(ctx context.Context, bot string, version int, st hosted.Seat, seat int) error
}

// hostedHouse is the house entry of bot's module in game: it plays version (0: the newest
// stored when a seat starts, so an upload takes effect from the next match). Its random
// source is seeded by the match seed and the seat, not by seed (the match id's).
func (l *Ladder) hostedHouse(bot, game string, version int) House {
	return House{Bot: bot, Game: game, Play: func(ctx context.Context, st *match.Seat, seat int, _ uint64) error {
		return l.cfg.Hosted.PlaySeat(ctx, bot, version, st, seat)
	}}
}

// hostedLocked is a house entry of hosted bot name (any game's: it plays the newest module
// whatever the game), nil if name is not hosted.
func (l *Ladder) hostedLocked(name string) *House {
	for _, hs := range l.house {
		for i := range hs {
			if hs[i].Bot == name && hs[i].Play != nil {
				return &hs[i]
			}
		}
	}
	return nil
}

// loadHosted seats every stored hosted bot in the games of its newest module.
func (l *Ladder) loadHosted(ctx context.Context) error {
	mods, err := l.cfg.DB.HostedBots(ctx)
	if err != nil {
		return err
	}
	for _, m := range mods {
		for _, g := range m.Games {
			if !slices.Contains(l.games, g) {
				continue // a game this server no longer plays
			}
			if err := l.AddHouse(l.hostedHouse(m.Bot, g, 0)); err != nil {
				return err
			}
		}
	}
	return nil
}

// UploadBotModule stores a new version of a bot's module and seats it from the next match.
func (l *Ladder) UploadBotModule(ctx context.Context, req *orreryv1.UploadBotModuleRequest) (*orreryv1.UploadBotModuleResponse, error) {
	if l.cfg.Hosted == nil {
		return nil, status.Error(codes.Unimplemented, "this server hosts no bots")
	}
	b, err := l.actFor(ctx, req.GetName())
	if err != nil {
		return nil, err
	}
	if b.house {
		return nil, status.Errorf(codes.InvalidArgument, "bot %q is a built-in bot", b.name)
	}
	games := req.GetGames()
	if len(games) == 0 {
		return nil, status.Errorf(codes.InvalidArgument, "name at least one game to play the module in (this ladder plays %s)", strings.Join(l.games, ", "))
	}
	for _, g := range games {
		if !slices.Contains(l.games, g) {
			return nil, status.Errorf(codes.InvalidArgument, "game %q is not played on this ladder (it plays %s)", g, strings.Join(l.games, ", "))
		}
	}
	m, err := l.cfg.Hosted.Upload(ctx, b.name, games, req.GetWasm())
	if errors.Is(err, hosted.ErrInvalid) {
		return nil, status.Errorf(codes.InvalidArgument, "module: %v", err)
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "upload %s: %v", b.name, err)
	}
	for _, g := range games {
		if err := l.AddHouse(l.hostedHouse(b.name, g, 0)); err != nil {
			return nil, status.Errorf(codes.Internal, "seat %s: %v", b.name, err)
		}
	}
	l.log.Info("hosted bot uploaded", "bot", b.name, "version", m.Version, "digest", m.Digest, "size", m.Size)
	wake(l.kick)
	return &orreryv1.UploadBotModuleResponse{Module: moduleProto(m)}, nil
}

func moduleProto(m *store.Module) *orreryv1.BotModule {
	return &orreryv1.BotModule{Version: int32(m.Version), Digest: m.Digest, Size: m.Size, Games: m.Games, Uploaded: timestamppb.New(m.Uploaded)}
}

// hostedSeats is how many of a hosted bot's newest seats GetBot shows.
const hostedSeats = 20

// addHosted adds a hosted bot's modules, verdicts and seats (its newest, or those in match
// matchID) to its GetBot answer, and its stderr if own (the call carries its key or the
// admin key).
func (l *Ladder) addHosted(ctx context.Context, name, matchID string, own bool, resp *orreryv1.GetBotResponse) error {
	mods, err := l.cfg.DB.Modules(ctx, name)
	if err != nil || len(mods) == 0 {
		return err
	}
	for _, m := range mods {
		resp.Bot.Modules = append(resp.Bot.Modules, moduleProto(m))
	}
	counts, err := l.cfg.DB.HostedVerdicts(ctx, name)
	if err != nil {
		return err
	}
	resp.Verdicts = make(map[string]int32, len(counts))
	for k, n := range counts {
		resp.Verdicts[k] = int32(n)
	}
	seats, err := l.cfg.DB.HostedSeats(ctx, name, hostedSeats)
	if matchID != "" {
		seats, err = l.cfg.DB.HostedSeatsIn(ctx, name, matchID)
	}
	if err != nil {
		return err
	}
	sort.SliceStable(seats, func(i, j int) bool { return seats[i].Ended.After(seats[j].Ended) })
	for _, s := range seats {
		resp.HostedSeats = append(resp.HostedSeats, &orreryv1.HostedSeat{MatchId: s.MatchID, Seat: int32(s.Seat), Version: int32(s.Version),
			Verdict: s.Verdict, VerdictDetail: s.Detail, Decisions: int32(s.Decisions), CpuNs: int64(s.CPU)})
		if own && resp.Stderr == "" && s.Stderr != "" {
			resp.Stderr = s.Stderr
		}
	}
	return nil
}
