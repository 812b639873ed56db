// Package caller names who a call is for, so that per-caller limits count each end client:
// the peer's host, unless the call carries a vouch. A vouch is the end client's name signed
// by a trusted hop (the server's own web gateway, or another node of a cluster relaying the
// call) with a key only those hops hold, over the method, the hop's id and the time. A client
// can send the header, but not a signature that checks, so a forged vouch counts as nothing.
package caller

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
)

// Header is the metadata key of a vouch.
const Header = "orrery-vouch"

// MaxSkew is how far a vouch's time may be from the checker's clock: a vouch copied off the
// wire is good only this long, and the hops' clocks may differ by this much.
const MaxSkew = 30 * time.Second

// maxName bounds a vouched client name or hop id: an address, not a payload.
const maxName = 256

// KeyBytes is the length of a key made by NewKey; a key from a file needs at least MinKeyBytes.
const (
	KeyBytes    = 32
	MinKeyBytes = 16
)

// Key signs and checks vouches. Whoever holds it is trusted to say who its callers are.
type Key struct{ secret []byte }

// NewKey draws a random key: the one a server shares with its in-process web gateway.
func NewKey() Key {
	b := make([]byte, KeyBytes)
	rand.Read(b) // crypto/rand never fails on supported platforms
	return Key{secret: b}
}

// KeyFrom is a key from secret bytes (a cluster's shared key file).
func KeyFrom(secret []byte) (Key, error) {
	if len(secret) < MinKeyBytes {
		return Key{}, errors.New("caller: a key needs at least 16 bytes")
	}
	return Key{secret: append([]byte(nil), secret...)}, nil
}

// Valid reports whether k can sign (the zero Key cannot).
func (k Key) Valid() bool { return len(k.secret) > 0 }

// Vouch returns ctx with outgoing metadata vouching that the call to method is made for
// client, by the hop called by, at now. Any vouch already in ctx's outgoing metadata (one
// copied from an incoming call) is replaced.
func (k Key) Vouch(ctx context.Context, method, client, by string, now time.Time) context.Context {
	md, _ := metadata.FromOutgoingContext(ctx)
	md = md.Copy()
	md.Set(Header, k.sign(method, clip(client), clip(by), now.UnixMilli()))
	return metadata.NewOutgoingContext(ctx, md)
}

// Vouched is a vouch that checked: the end client, and the hop that vouched for it.
type Vouched struct {
	Client string
	By     string
}

// Check reads ctx's incoming vouch for method. ok only when there is exactly one, signed with
// k over this method, within MaxSkew of now.
func (k Key) Check(ctx context.Context, method string, now time.Time) (v Vouched, ok bool) {
	if !k.Valid() {
		return Vouched{}, false
	}
	md, _ := metadata.FromIncomingContext(ctx)
	vals := md.Get(Header)
	if len(vals) != 1 {
		return Vouched{}, false
	}
	parts := strings.Split(vals[0], ".")
	if len(parts) != 5 || parts[0] != "v1" {
		return Vouched{}, false
	}
	by, err1 := base64.RawURLEncoding.DecodeString(parts[1])
	ms, err2 := strconv.ParseInt(parts[2], 10, 64)
	client, err3 := base64.RawURLEncoding.DecodeString(parts[3])
	if err1 != nil || err2 != nil || err3 != nil || len(by) > maxName || len(client) > maxName {
		return Vouched{}, false
	}
	if d := now.Sub(time.UnixMilli(ms)); d > MaxSkew || d < -MaxSkew {
		return Vouched{}, false
	}
	want := k.sign(method, string(client), string(by), ms)
	if !hmac.Equal([]byte(want), []byte(vals[0])) {
		return Vouched{}, false
	}
	return Vouched{Client: string(client), By: string(by)}, true
}

// sign is the header's value: v1.by.ms.client.mac, names in base64url, mac HMAC-SHA256 over
// every field and the method, so that a vouch for one call is no vouch for another method.
func (k Key) sign(method, client, by string, ms int64) string {
	b64 := base64.RawURLEncoding
	head := "v1." + b64.EncodeToString([]byte(by)) + "." + strconv.FormatInt(ms, 10) + "." + b64.EncodeToString([]byte(client))
	mac := hmac.New(sha256.New, k.secret)
	mac.Write([]byte(method))
	mac.Write([]byte{0})
	mac.Write([]byte(head))
	return head + "." + b64.EncodeToString(mac.Sum(nil))
}

func clip(s string) string {
	if len(s) > maxName {
		return s[:maxName]
	}
	return s
}

// Peer is the host of ctx's peer: the caller when nothing vouches for another. In-process
// calls have none ("").
func Peer(ctx context.Context) string {
	p, ok := peer.FromContext(ctx)
	if !ok || p.Addr == nil {
		return ""
	}
	return Host(p.Addr.String())
}

// Host is an address's host: the name per-caller limits count (every port of a host is one
// caller).
func Host(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// Trust is who may vouch for a caller: the server's own web gateway (Gateway) and the other
// nodes of its cluster (Cluster). Either key may be zero: nobody vouches that way.
type Trust struct {
	Gateway Key
	Cluster Key
}

// Who is who a call is for.
type Who struct {
	// Name is the caller per-caller limits count: the vouched end client, else the peer's host.
	Name string
	// Node is the id of the cluster node that relayed the call, which has counted the call's
	// limits against Name already; "" when the call did not come from a node.
	Node string
}

// Of is who ctx's call to method is for at now. A vouch that does not check is ignored, so a
// client that sends one is its own peer address, like any other.
func (t Trust) Of(ctx context.Context, method string, now time.Time) Who {
	if v, ok := t.Cluster.Check(ctx, method, now); ok {
		return Who{Name: v.Client, Node: v.By}
	}
	if v, ok := t.Gateway.Check(ctx, method, now); ok {
		return Who{Name: v.Client}
	}
	return Who{Name: Peer(ctx)}
}
