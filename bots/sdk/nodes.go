package sdk

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Nodes reaches a cluster of Orrery nodes through any of several addresses: every node
// answers every call (it relays calls about a match to the node that runs it). Calls go to
// one node; when a call or a stream fails there with Unavailable (the node died, is shutting
// down, or a match is moving to another node), later calls go to the next address in turn.
// Play and the ladder client (bots/ladder) then rejoin with their backoff and jitter, so a
// bot whose node dies reaches the match's new owner through the next node.
//
// Nodes is a grpc.ClientConnInterface: pass it wherever a *grpc.ClientConn goes. It is safe
// for concurrent use; one Nodes may serve many seats.
type Nodes struct {
	addrs []string
	conns []*grpc.ClientConn
	at    atomic.Int64 // the index of the node calls go to
}

var _ grpc.ClientConnInterface = (*Nodes)(nil)

// SplitAddrs splits a comma-separated list of addresses ("a:7070,b:7070"), dropping blanks.
func SplitAddrs(list string) []string {
	var out []string
	for _, a := range strings.Split(list, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// Dial connects to each of addrs (no I/O until the first call), with opts for every one.
// Calls start at addrs[0]: bots that list the nodes in different orders spread over them.
func Dial(addrs []string, opts ...grpc.DialOption) (*Nodes, error) {
	if len(addrs) == 0 {
		return nil, errors.New("sdk: no server address")
	}
	n := &Nodes{addrs: addrs}
	for _, a := range addrs {
		c, err := grpc.NewClient(a, opts...)
		if err != nil {
			n.Close()
			return nil, err
		}
		n.conns = append(n.conns, c)
	}
	return n, nil
}

// Addr is the address calls go to now.
func (n *Nodes) Addr() string { return n.addrs[n.at.Load()] }

// Close closes every connection.
func (n *Nodes) Close() error {
	var errs []error
	for _, c := range n.conns {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// failed moves calls on from node i after a failure there, unless another call already
// did: the seats that lose one node together move on by one address, not one each.
func (n *Nodes) failed(i int64, err error) {
	if status.Code(err) == codes.Unavailable {
		n.at.CompareAndSwap(i, (i+1)%int64(len(n.conns)))
	}
}

// Invoke makes a unary call on the current node.
func (n *Nodes) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	i := n.at.Load()
	err := n.conns[i].Invoke(ctx, method, args, reply, opts...)
	if err != nil {
		n.failed(i, err)
	}
	return err
}

// NewStream opens a stream on the current node; the stream reports its failure back.
func (n *Nodes) NewStream(ctx context.Context, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	i := n.at.Load()
	s, err := n.conns[i].NewStream(ctx, desc, method, opts...)
	if err != nil {
		n.failed(i, err)
		return nil, err
	}
	return &nodeStream{ClientStream: s, nodes: n, i: i}, nil
}

// nodeStream is a stream on node i that reports a failure to its Nodes.
type nodeStream struct {
	grpc.ClientStream
	nodes *Nodes
	i     int64
}

func (s *nodeStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if err != nil {
		s.nodes.failed(s.i, err)
	}
	return err
}
