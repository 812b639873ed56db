// Package view serves ViewService: a finished match at any ply, as a seat, a spectator or
// everyone saw it. It re-runs the match's replay with the open engine, as anyone verifying a
// replay would, so it needs nothing from the server but GetReplay. A running match has no
// views: GetReplay refuses it, so no hidden information of a live match can pass through here.
package view

import (
	"context"
	"fmt"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/match"
	"github.com/orrery/orrery/service/store"
)

// Replays is where finished matches come from: the arena itself, or a client of it.
type Replays interface {
	GetReplay(ctx context.Context, req *orreryv1.GetReplayRequest) (*orreryv1.GetReplayResponse, error)
}

// ClientReplays adapts an ArenaService client to Replays.
func ClientReplays(c orreryv1.ArenaServiceClient) Replays { return clientReplays{c} }

type clientReplays struct{ c orreryv1.ArenaServiceClient }

func (r clientReplays) GetReplay(ctx context.Context, req *orreryv1.GetReplayRequest) (*orreryv1.GetReplayResponse, error) {
	return r.c.GetReplay(ctx, req)
}

// cacheSize is how many finished replays are kept: a replay never changes, and a person
// stepping through one asks for every ply in turn.
const cacheSize = 16

// Service implements orreryv1.ViewServiceServer.
type Service struct {
	orreryv1.UnimplementedViewServiceServer
	replays Replays

	mu    sync.Mutex // guards cache and order
	cache map[string]*orreryv1.GetReplayResponse
	order []string // match ids, oldest first
}

var _ orreryv1.ViewServiceServer = (*Service)(nil)

// New serves views of the replays r gives.
func New(r Replays) *Service {
	return &Service{replays: r, cache: make(map[string]*orreryv1.GetReplayResponse)}
}

// Register adds the service to a gRPC server.
func (s *Service) Register(g *grpc.Server) { orreryv1.RegisterViewServiceServer(g, s) }

// GetView re-runs the match's log up to the ply and observes it as the viewer.
func (s *Service) GetView(ctx context.Context, req *orreryv1.GetViewRequest) (*orreryv1.GetViewResponse, error) {
	if req.GetMatchId() == "" {
		return nil, status.Error(codes.InvalidArgument, "match_id is empty")
	}
	if req.GetPly() < 0 || req.GetFromEvent() < 0 || req.GetMaxEvents() < 0 {
		return nil, status.Error(codes.InvalidArgument, "ply, from_event and max_events must not be negative")
	}
	rep, err := s.replay(ctx, req.GetMatchId())
	if err != nil {
		return nil, err
	}
	m := rep.GetMatch()
	plies := int64(len(rep.GetSteps()))
	if req.GetPly() > plies {
		return nil, status.Errorf(codes.InvalidArgument, "ply %d is past the end: the match has %d plies", req.GetPly(), plies)
	}
	viewer := engine.Spectator
	switch req.GetViewer() {
	case orreryv1.Viewer_VIEWER_UNSPECIFIED, orreryv1.Viewer_VIEWER_OMNISCIENT:
	case orreryv1.Viewer_VIEWER_SEAT:
		if req.GetSeat() < 0 || req.GetSeat() >= m.GetSeats() {
			return nil, status.Errorf(codes.InvalidArgument, "seat %d out of range: the match has %d seats", req.GetSeat(), m.GetSeats())
		}
		viewer = engine.Seat(req.GetSeat())
	default:
		return nil, status.Errorf(codes.InvalidArgument, "unknown viewer %d", req.GetViewer())
	}

	// The match's log up to the ply, re-run as the arena re-runs it (match.Rerun).
	steps := make([]store.Step, req.GetPly())
	for i, sp := range rep.GetSteps()[:req.GetPly()] {
		steps[i] = store.Step{Seq: int64(i), Seat: int(sp.GetSeat()), Notation: sp.GetNotation(), TimedOut: int32(sp.GetTimedOut())}
	}
	log, err := match.Rerun(m.GetGame(), engine.Config{Seats: int(m.GetSeats()), Seed: rep.GetSeed(), Options: m.GetOptions()}, steps)
	if err != nil {
		return nil, status.Errorf(codes.DataLoss, "replay of %s: %v", m.GetMatchId(), err)
	}
	st := log.State()

	// GetView numbers the events of the steps from 0, without those of the start (live
	// seats are sent those too, first: Planet's deal).
	opening := log.Opening()
	out := &orreryv1.GetViewResponse{Ply: req.GetPly(), Plies: plies, EventCount: log.EventCount() - opening}
	var obs proto.Message
	if o, ok := st.(engine.Omniscient); ok && req.GetViewer() == orreryv1.Viewer_VIEWER_OMNISCIENT {
		obs = o.ObserveAll()
	} else {
		obs = st.Observe(viewer)
	}
	out.Observation = wire.Observation(obs)
	if r, ok := st.(engine.ObservationRenderer); ok && req.GetViewer() != orreryv1.Viewer_VIEWER_OMNISCIENT {
		out.Text = r.RenderObservation(obs)
	} else {
		out.Text = st.Render(viewer)
	}
	for _, seat := range st.ToAct(nil) {
		out.ToAct = append(out.ToAct, int32(seat))
	}
	from := req.GetFromEvent()
	if n := int64(req.GetMaxEvents()); n > 0 && out.EventCount-n > from {
		from = out.EventCount - n
	}
	out.Events = log.Events(viewer, from+opening) // built for this call alone: renumbered in place
	for _, e := range out.Events {
		e.Seq -= opening
	}
	return out, nil
}

// replay is the match's replay, from the cache or the source.
func (s *Service) replay(ctx context.Context, id string) (*orreryv1.GetReplayResponse, error) {
	s.mu.Lock()
	rep, ok := s.cache[id]
	s.mu.Unlock()
	if ok {
		return rep, nil
	}
	rep, err := s.replays.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
	if err != nil {
		if _, ok := status.FromError(err); ok {
			return nil, err
		}
		return nil, fmt.Errorf("replay of %s: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.cache[id]; !ok {
		if len(s.order) == cacheSize {
			delete(s.cache, s.order[0])
			s.order = s.order[1:]
		}
		s.cache[id] = rep
		s.order = append(s.order, id)
	}
	return rep, nil
}
