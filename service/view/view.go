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

// cacheSize is how many finished matches' timelines are kept: a replay never changes, and a
// person stepping through one asks for every ply in turn.
const cacheSize = 8

// Service implements orreryv1.ViewServiceServer.
type Service struct {
	orreryv1.UnimplementedViewServiceServer
	replays Replays

	mu    sync.Mutex // guards cache and order
	cache map[string]*timeline
	order []string // match ids, oldest first
}

var _ orreryv1.ViewServiceServer = (*Service)(nil)

// New serves views of the replays r gives.
func New(r Replays) *Service {
	return &Service{replays: r, cache: make(map[string]*timeline)}
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
	tl, err := s.timeline(ctx, req.GetMatchId())
	if err != nil {
		return nil, err
	}
	rep := tl.rep
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

	out := &orreryv1.GetViewResponse{Ply: req.GetPly(), Plies: plies}
	err = tl.at(int(req.GetPly()), func(st engine.State) error {
		refs := tl.refs[:tl.refsAt[req.GetPly()]]
		out.EventCount = int64(len(refs))
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
		if n := int64(req.GetMaxEvents()); n > 0 && int64(len(refs))-n > from {
			from = int64(len(refs)) - n
		}
		out.Events = events(st, viewer, refs, rep, from)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// events are the viewer's events numbered from on, as it saw them.
func events(st engine.State, viewer engine.Seat, refs []int, rep *orreryv1.GetReplayResponse, from int64) []*orreryv1.Event {
	if from >= int64(len(refs)) {
		return nil
	}
	first := -1
	for _, r := range refs[from:] {
		if r >= 0 {
			first = r
			break
		}
	}
	var game []proto.Message
	if first >= 0 {
		game = st.Events(viewer, first, nil)
	}
	out := make([]*orreryv1.Event, 0, len(refs)-int(from))
	gi := 0
	for i, r := range refs[from:] {
		e := &orreryv1.Event{Seq: from + int64(i)}
		if r >= 0 {
			if gi >= len(game) {
				break
			}
			e.Kind = &orreryv1.Event_Game{Game: wire.GameEvent(game[gi])}
			gi++
		} else {
			e.Kind = &orreryv1.Event_TimedOut{TimedOut: timedOut(rep, -1-r, from+int64(i))}
		}
		out = append(out, e)
	}
	return out
}

// timedOut is the replay's own record of a timeout event (it carries the policy).
func timedOut(rep *orreryv1.GetReplayResponse, seat int, seq int64) *orreryv1.SeatTimedOut {
	if evs := rep.GetEvents(); seq < int64(len(evs)) {
		if t := evs[seq].GetTimedOut(); t != nil {
			return t
		}
	}
	return &orreryv1.SeatTimedOut{Seat: int32(seat)}
}

// timeline is the match's timeline, from the cache or re-run from its replay.
func (s *Service) timeline(ctx context.Context, id string) (*timeline, error) {
	s.mu.Lock()
	tl, ok := s.cache[id]
	s.mu.Unlock()
	if ok {
		return tl, nil
	}
	rep, err := s.replays.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
	if err != nil {
		if _, ok := status.FromError(err); ok {
			return nil, err
		}
		return nil, fmt.Errorf("replay of %s: %w", id, err)
	}
	if tl, err = newTimeline(rep); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.cache[id]; ok {
		return old, nil
	}
	if len(s.order) == cacheSize {
		delete(s.cache, s.order[0])
		s.order = s.order[1:]
	}
	s.cache[id] = tl
	s.order = append(s.order, id)
	return tl, nil
}
