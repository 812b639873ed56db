package service

import (
	"context"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"strings"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// Any node of a cluster answers any RPC: a call that needs a live match this node does not
// hold is relayed to the node holding its lease, over one pooled connection per peer. The
// relay keeps the caller's metadata (API keys, bearer keys), passes the owner's status codes
// through unchanged, and turns the loss of the owner into Unavailable, which clients retry
// through any node until a live node has taken the match over.

// forwardedBy is the metadata key a node sets on a call it relays, naming itself. A node
// never relays a relayed call again: two nodes that disagree about an owner for a moment
// (a takeover in progress) answer Unavailable rather than bounce the call between them.
const forwardedBy = "orrery-forwarded-by"

// peers is the pool of connections to the other nodes: one grpc.ClientConn per address.
type peers struct {
	creds credentials.TransportCredentials

	mu     sync.Mutex // guards conns and closed
	conns  map[string]*grpc.ClientConn
	closed bool
}

func newPeers(creds credentials.TransportCredentials) *peers {
	if creds == nil {
		creds = insecure.NewCredentials()
	}
	return &peers{creds: creds, conns: make(map[string]*grpc.ClientConn)}
}

// conn is the pooled connection to the node at addr; grpc-go reconnects it by itself.
func (p *peers) conn(addr string) (*grpc.ClientConn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errShuttingDown
	}
	if c := p.conns[addr]; c != nil {
		return c, nil
	}
	c, err := grpc.NewClient(addr, grpc.WithTransportCredentials(p.creds))
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "node %s: %v", addr, err)
	}
	p.conns[addr] = c
	return c, nil
}

func (p *peers) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// errMoving is a match whose lease lapsed or is being taken over: a moment later a live node
// holds it.
func errMoving(id string) error {
	return status.Errorf(codes.Unavailable, "match %q is moving to another node; retry", id)
}

// Owner says where match id runs. local is true when this server answers for it itself:
// it holds the match in memory, or the match has no owner (it has ended, or does not exist;
// this server then answers from the store, or with NotFound). Otherwise conn reaches the
// node that holds the match's lease (pooled: do not close it); a call made on it should
// carry ForwardContext(ctx) so that the owner does not relay it again. A match whose lease
// has lapsed, or whose owner is this node while the match is not yet in memory (a takeover
// in progress), is Unavailable: retry shortly. Without a cluster (Config.Node nil) every
// match is local.
func (s *Server) Owner(ctx context.Context, id string) (conn grpc.ClientConnInterface, local bool, err error) {
	if s.lookup(id) != nil || s.cfg.Node == nil || s.store == nil {
		return nil, true, nil
	}
	l, err := s.store.Owner(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, status.Errorf(codes.Unavailable, "the owner of match %q: %v", id, err)
	}
	if l.Node.ID == s.cfg.Node.ID || l.Node.Addr == "" || l.Expires.Before(s.now()) {
		return nil, false, errMoving(id)
	}
	if relayed(ctx) {
		// The node that sent this call thinks this node owns the match; it does not (yet).
		return nil, false, errMoving(id)
	}
	c, err := s.peers.conn(l.Node.Addr)
	if err != nil {
		return nil, false, err
	}
	return c, false, nil
}

// ForwardContext is the outgoing context of a call relayed on behalf of ctx's caller: the
// caller's metadata, less what belongs to the hop (gRPC's own headers), and the mark that
// keeps the receiving node from relaying it again.
func (s *Server) ForwardContext(ctx context.Context) context.Context {
	md, _ := metadata.FromIncomingContext(ctx)
	out := metadata.MD{}
	for k, v := range md {
		if strings.HasPrefix(k, ":") || strings.HasPrefix(k, "grpc-") || k == "content-type" || k == "user-agent" || k == forwardedBy {
			continue
		}
		out[k] = v
	}
	id := ""
	if s.cfg.Node != nil {
		id = s.cfg.Node.ID
	}
	out.Set(forwardedBy, id)
	return metadata.NewOutgoingContext(ctx, out)
}

// relayedByNode reports whether ctx's call was relayed here by a live node of the cluster:
// marked as relayed, and from the host of a live node's address. The mark alone is a header
// any client can set; a process on a node's own host is trusted as that node.
func (s *Server) relayedByNode(ctx context.Context) bool {
	if s.cfg.Node == nil || s.store == nil || !relayed(ctx) {
		return false
	}
	from := net.ParseIP(caller(ctx))
	if from == nil {
		return false
	}
	now := s.now()
	nodes, err := s.store.Live(ctx, now.Add(-s.cfg.Node.LeaseTTL), now)
	if err != nil {
		return false
	}
	for _, n := range nodes {
		host, _, err := net.SplitHostPort(n.Addr)
		if err != nil {
			continue
		}
		ips, err := net.DefaultResolver.LookupHost(ctx, host)
		if err != nil {
			continue
		}
		for _, ip := range ips {
			if net.ParseIP(ip).Equal(from) {
				return true
			}
		}
	}
	return false
}

// relayed reports whether another node relayed this call here.
func relayed(ctx context.Context) bool {
	md, _ := metadata.FromIncomingContext(ctx)
	return len(md.Get(forwardedBy)) > 0
}

// seatElsewhere is, on a node of a cluster, the owner of the running match whose seat token
// is token when this node does not hold it; nil, nil when the seat is this node's to serve
// (or unknown anywhere: Attach then says so).
func (s *Server) seatElsewhere(ctx context.Context, token string) (grpc.ClientConnInterface, error) {
	if s.cfg.Node == nil || s.store == nil || token == "" {
		return nil, nil
	}
	h := hashToken(token)
	s.mu.Lock()
	_, here := s.byToken[h]
	s.mu.Unlock()
	if here {
		return nil, nil
	}
	// A token names its match (seatToken); one from before that is looked up by its hash.
	id := tokenMatch(token)
	if id == "" {
		var err error
		id, err = s.store.RunningByToken(ctx, hex.EncodeToString(h[:]))
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, status.Errorf(codes.Unavailable, "join: finding the seat's match: %v", err)
		}
	}
	conn, local, err := s.Owner(ctx, id)
	if err != nil {
		return nil, err
	}
	if !local {
		return conn, nil
	}
	if s.lookup(id) != nil {
		return nil, nil
	}
	// Nobody owns it: ended (or never was; Attach says so), or orphaned until a takeover.
	rec, err := s.store.Match(ctx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && rec.Result != nil) {
		return nil, nil
	}
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "join: finding the seat's match: %v", err)
	}
	return nil, errMoving(id)
}

// relayPlay relays a Play stream, whose first request (the join) has been read, to the
// match's owner, both ways, until either side ends it. The owner's status ends the stream
// unchanged; losing the owner ends it with Unavailable, and the bot rejoins through any node.
func (s *Server) relayPlay(stream PlayStream, first *orreryv1.PlayRequest, conn grpc.ClientConnInterface) error {
	ctx, cancel := context.WithCancel(s.ForwardContext(stream.Context()))
	defer cancel()
	out, err := orreryv1.NewArenaServiceClient(conn).Play(ctx)
	if err != nil {
		return relayStatus(err)
	}
	if err := out.Send(first); err != nil && !errors.Is(err, io.EOF) {
		return relayStatus(err)
	}
	// The bot's requests go to the owner on their own goroutine; like Play's receiver, it
	// ends when the bot's stream does (which the handler's return causes).
	go func() {
		for {
			req, err := stream.Recv()
			if err != nil {
				if errors.Is(err, io.EOF) {
					out.CloseSend()
				} else {
					cancel()
				}
				return
			}
			if err := out.Send(req); err != nil {
				return // the owner's side ended: its Recv below reports why
			}
		}
	}()
	return relayDown(stream, out, func(r *orreryv1.PlayResponse) error { return stream.Send(r) })
}

// relayWatch relays a Watch stream to the match's owner.
func (s *Server) relayWatch(req *orreryv1.WatchRequest, stream grpc.ServerStreamingServer[orreryv1.WatchResponse], conn grpc.ClientConnInterface) error {
	ctx, cancel := context.WithCancel(s.ForwardContext(stream.Context()))
	defer cancel()
	out, err := orreryv1.NewArenaServiceClient(conn).Watch(ctx, req)
	if err != nil {
		return relayStatus(err)
	}
	return relayDown(stream, out, func(r *orreryv1.WatchResponse) error { return stream.Send(r) })
}

// relayDown sends what the owner sends until it ends the stream, then hands its trailer
// and status to the caller.
func relayDown[T any](down grpc.ServerStream, up interface {
	Recv() (*T, error)
	Header() (metadata.MD, error)
	Trailer() metadata.MD
}, send func(*T) error) error {
	if md, err := up.Header(); err == nil && len(md) > 0 {
		down.SetHeader(md)
	}
	for {
		msg, err := up.Recv()
		if err != nil {
			down.SetTrailer(up.Trailer())
			if errors.Is(err, io.EOF) {
				return nil
			}
			return relayStatus(err)
		}
		if err := send(msg); err != nil {
			return err
		}
	}
}

// relayStatus is the owner's status as it came; an error that carries none (the caller's
// context ended) becomes the status gRPC gives it.
func relayStatus(err error) error {
	if _, ok := status.FromError(err); ok {
		return err
	}
	return status.FromContextError(err).Err()
}

// createElsewhere places a CreateMatch on the least loaded live node when this one has no
// room (limits.Config.LiveMatches); nil conn means create here. A relayed create is never
// placed again.
func (s *Server) createElsewhere(ctx context.Context) (grpc.ClientConnInterface, error) {
	if s.cfg.Node == nil || s.store == nil || relayed(ctx) || s.limits.Live(int(s.live.Load())) == nil {
		return nil, nil
	}
	now := s.now()
	nodes, err := s.store.Live(ctx, now.Add(-s.cfg.Node.LeaseTTL), now)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "placing the match: %v", err)
	}
	room := s.limits.Config().LiveMatches
	for _, n := range nodes { // least loaded first
		if n.ID != s.cfg.Node.ID && n.Matches < room && n.Addr != "" {
			c, err := s.peers.conn(n.Addr)
			if err != nil {
				return nil, err
			}
			return c, nil
		}
	}
	return nil, nil // every node is full: this one says so
}
