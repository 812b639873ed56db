package cluster

import (
	"context"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/caller"
	"github.com/orrery/orrery/service/store"
)

// Any node of a cluster answers any RPC: a call that needs a live match this node does not
// hold is relayed to the node holding its lease, over one pooled connection per peer. The
// relay keeps the caller's metadata (API keys, bearer keys), passes the owner's status codes
// through unchanged, and turns the loss of the owner into Unavailable, which clients retry
// through any node until a live node has taken the match over.

// ForwardedBy is the metadata key a node sets on a call it relays, naming itself. A node
// never relays a relayed call again: two nodes that disagree about an owner for a moment
// (a takeover in progress) answer Unavailable rather than bounce the call between them.
const ForwardedBy = "orrery-forwarded-by"

// peers is the pool of connections to the other nodes: one grpc.ClientConn per address.
type peers struct {
	creds credentials.TransportCredentials

	mu     sync.Mutex // guards conns, names and closed
	conns  map[string]*grpc.ClientConn
	names  map[*grpc.ClientConn]string // the node each connection reaches, for errors: "node-a (ADDR)"
	closed bool
}

func newPeers(creds credentials.TransportCredentials) *peers {
	if creds == nil {
		creds = insecure.NewCredentials()
	}
	return &peers{creds: creds, conns: make(map[string]*grpc.ClientConn), names: make(map[*grpc.ClientConn]string)}
}

// conn is the pooled connection to node id at addr; grpc-go reconnects it by itself.
func (p *peers) conn(id, addr string) (*grpc.ClientConn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, status.Error(codes.Unavailable, "server is shutting down; rejoin with the same token")
	}
	if c := p.conns[addr]; c != nil {
		if id != "" {
			p.names[c] = id + " (" + addr + ")"
		}
		return c, nil
	}
	c, err := grpc.NewClient(addr, grpc.WithTransportCredentials(p.creds))
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "node %s at %s: %v; retry", id, addr, err)
	}
	p.conns[addr] = c
	p.names[c] = id + " (" + addr + ")"
	if id == "" {
		p.names[c] = addr
	}
	return c, nil
}

// name is "node node-a (ADDR)" for a pooled connection, or its target.
func (p *peers) name(conn grpc.ClientConnInterface) string {
	if v, ok := conn.(vouching); ok {
		conn = v.ClientConnInterface
	}
	c, ok := conn.(*grpc.ClientConn)
	if !ok {
		return "the match's node"
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := p.names[c]; n != "" {
		return "node " + n
	}
	return "node " + c.Target()
}

// lostOwner is how a relayed call ends when the owner cannot be reached: grpc-go's own
// Unavailable ("transport: Error while dialing ... connection refused") said for a person,
// naming the node and what to do. A status the owner sent passes unchanged.
func (c *Cluster) lostOwner(err error, conn grpc.ClientConnInterface) error {
	st, ok := status.FromError(err)
	if !ok || st.Code() != codes.Unavailable || !transportFailure(st.Message()) {
		return RelayStatus(err)
	}
	return status.Errorf(codes.Unavailable, "%s, which runs this match, cannot be reached (%s): it may have died or be "+
		"restarting; retry with backoff, through any node: a live node takes the match over within about %s",
		c.peers.name(conn), st.Message(), (c.cfg.Node.LeaseTTL + c.cfg.Node.LeaseTTL/3).Round(time.Second))
}

// transportFailure says whether an Unavailable message is grpc-go's about the connection,
// not one a node sent.
func transportFailure(msg string) bool {
	for _, s := range []string{"transport", "connection error", "error reading from server", "connection closed"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
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
// holds it. from names the node it is moving from, if known.
func errMoving(id, from string) error {
	if from != "" {
		return status.Errorf(codes.Unavailable, "match %q is moving to another node (from node %s); retry with backoff", id, from)
	}
	return status.Errorf(codes.Unavailable, "match %q is moving to another node; retry with backoff", id)
}

// Owner says where match id runs. local is true when this server answers for it itself:
// it holds the match in memory, or the match has no owner (it has ended, or does not exist;
// this server then answers from the store, or with NotFound). Otherwise conn reaches the
// node that holds the match's lease (pooled: do not close it); a call made on it should
// carry ForwardContext(ctx) so that the owner does not relay it again. A match whose lease
// has lapsed, or whose owner is this node while the match is not yet in memory (a takeover
// in progress), is Unavailable: retry shortly.
func (c *Cluster) Owner(ctx context.Context, id string) (conn grpc.ClientConnInterface, local bool, err error) {
	if c.local.Holds(id) {
		return nil, true, nil
	}
	l, err := c.store.Owner(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, status.Errorf(codes.Unavailable, "the owner of match %q: %v", id, err)
	}
	if l.Node.ID == c.cfg.Node.ID || l.Node.Addr == "" || l.Expires.Before(c.now()) {
		return nil, false, errMoving(id, l.Node.ID)
	}
	if relayed(ctx) {
		// The node that sent this call thinks this node owns the match; it does not (yet).
		return nil, false, errMoving(id, l.Node.ID)
	}
	pc, err := c.peer(l.Node.ID, l.Node.Addr)
	if err != nil {
		return nil, false, err
	}
	return pc, false, nil
}

// ForwardContext is the outgoing context of a call relayed on behalf of ctx's caller: the
// caller's metadata, less what belongs to the hop (gRPC's own headers), and the mark that
// keeps the receiving node from relaying it again.
func (c *Cluster) ForwardContext(ctx context.Context) context.Context {
	md, _ := metadata.FromIncomingContext(ctx)
	out := metadata.MD{}
	for k, v := range md {
		if strings.HasPrefix(k, ":") || strings.HasPrefix(k, "grpc-") || k == "content-type" || k == "user-agent" || k == ForwardedBy || k == caller.Header {
			continue
		}
		out[k] = v
	}
	out.Set(ForwardedBy, c.cfg.Node.ID)
	// The relay vouches for the caller (vouching signs it with the method it calls).
	ctx = context.WithValue(ctx, relayFor{}, c.Caller(ctx).Name)
	return metadata.NewOutgoingContext(ctx, out)
}

// relayFor holds, in a relayed call's context, the caller the relay is made for.
type relayFor struct{}

// peer is the pooled connection to the node at addr, vouching for each relayed call's caller.
func (c *Cluster) peer(id, addr string) (grpc.ClientConnInterface, error) {
	pc, err := c.peers.conn(id, addr)
	if err != nil {
		return nil, err
	}
	return vouching{ClientConnInterface: pc, c: c}, nil
}

// vouching signs, on each call made with a ForwardContext, who the call is for: the key is
// the cluster's, so the receiving node counts the caller's limits as this node counted them
// (a relayed create is counted once, here) and a plain client's own relay mark counts as
// nothing but that client.
type vouching struct {
	grpc.ClientConnInterface
	c *Cluster
}

func (v vouching) vouch(ctx context.Context, method string) context.Context {
	client, ok := ctx.Value(relayFor{}).(string)
	if !ok || !v.c.cfg.Trust.Cluster.Valid() {
		return ctx
	}
	return v.c.cfg.Trust.Cluster.Vouch(ctx, method, client, v.c.cfg.Node.ID, v.c.now())
}

func (v vouching) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	return v.ClientConnInterface.Invoke(v.vouch(ctx, method), method, args, reply, opts...)
}

func (v vouching) NewStream(ctx context.Context, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	return v.ClientConnInterface.NewStream(v.vouch(ctx, method), desc, method, opts...)
}

// relayed reports whether another node relayed this call here.
func relayed(ctx context.Context) bool {
	md, _ := metadata.FromIncomingContext(ctx)
	return len(md.Get(ForwardedBy)) > 0
}

// SeatElsewhere is the owner of the running match of the seat whose token hashes to h when
// this node does not hold it; nil, nil when the seat is this node's to serve (or unknown
// anywhere: the arena then says so). id is the match the token names, "" for a token of
// the format before that, looked up by its hash.
func (c *Cluster) SeatElsewhere(ctx context.Context, id string, h [32]byte) (grpc.ClientConnInterface, error) {
	if c.local.SeatHere(h) {
		return nil, nil
	}
	if id == "" {
		var err error
		id, err = c.store.RunningByToken(ctx, hex.EncodeToString(h[:]))
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, status.Errorf(codes.Unavailable, "join: finding the seat's match: %v", err)
		}
	}
	conn, local, err := c.Owner(ctx, id)
	if err != nil {
		return nil, err
	}
	if !local {
		return conn, nil
	}
	if c.local.Holds(id) {
		return nil, nil
	}
	// Nobody owns it: ended (or never was; Attach says so), or orphaned until a takeover.
	rec, err := c.store.Match(ctx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && rec.Result != nil) {
		return nil, nil
	}
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "join: finding the seat's match: %v", err)
	}
	return nil, errMoving(id, "")
}

// RelayPlay relays a Play stream, whose first request (the join) has been read, to the
// match's owner, both ways, until either side ends it. The owner's status ends the stream
// unchanged; losing the owner ends it with Unavailable, and the bot rejoins through any node.
func (c *Cluster) RelayPlay(stream grpc.BidiStreamingServer[orreryv1.PlayRequest, orreryv1.PlayResponse], first *orreryv1.PlayRequest, conn grpc.ClientConnInterface) error {
	ctx, cancel := context.WithCancel(c.ForwardContext(stream.Context()))
	defer cancel()
	out, err := orreryv1.NewArenaServiceClient(conn).Play(ctx)
	if err != nil {
		return c.lostOwner(err, conn)
	}
	if err := out.Send(first); err != nil && !errors.Is(err, io.EOF) {
		return c.lostOwner(err, conn)
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
	return c.lostOwner(relayDown(stream, out, func(r *orreryv1.PlayResponse) error { return stream.Send(r) }), conn)
}

// RelayWatch relays a Watch stream to the match's owner.
func (c *Cluster) RelayWatch(req *orreryv1.WatchRequest, stream grpc.ServerStreamingServer[orreryv1.WatchResponse], conn grpc.ClientConnInterface) error {
	ctx, cancel := context.WithCancel(c.ForwardContext(stream.Context()))
	defer cancel()
	out, err := orreryv1.NewArenaServiceClient(conn).Watch(ctx, req)
	if err != nil {
		return c.lostOwner(err, conn)
	}
	return c.lostOwner(relayDown(stream, out, func(r *orreryv1.WatchResponse) error { return stream.Send(r) }), conn)
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
			return RelayStatus(err)
		}
		if err := send(msg); err != nil {
			return err
		}
	}
}

// RelayStatus is the owner's status as it came; an error that carries none (the caller's
// context ended) becomes the status gRPC gives it.
func RelayStatus(err error) error {
	if _, ok := status.FromError(err); ok {
		return err
	}
	return status.FromContextError(err).Err()
}

// CreateElsewhere places a CreateMatch on the least loaded live node when this one is full
// (Config.Room); nil conn means create here. A relayed create is never placed again.
func (c *Cluster) CreateElsewhere(ctx context.Context, full bool) (grpc.ClientConnInterface, error) {
	if !full || relayed(ctx) {
		return nil, nil
	}
	now := c.now()
	nodes, err := c.store.Live(ctx, now.Add(-c.cfg.Node.LeaseTTL), now)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "placing the match: %v", err)
	}
	for _, n := range nodes { // least loaded first
		if n.ID != c.cfg.Node.ID && n.Matches < c.cfg.Room && n.Addr != "" {
			pc, err := c.peer(n.ID, n.Addr)
			if err != nil {
				return nil, err
			}
			return pc, nil
		}
	}
	return nil, nil // every node is full: this one says so
}
