package caller

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
)

const method = "/orrery.v1.ArenaService/CreateMatch"

// incoming turns the outgoing metadata of ctx into a server's incoming metadata.
func incoming(ctx context.Context) context.Context {
	md, _ := metadata.FromOutgoingContext(ctx)
	return metadata.NewIncomingContext(context.Background(), md)
}

func TestVouch_ChecksOnlyWithItsKeyMethodAndTime(t *testing.T) {
	k, other := NewKey(), NewKey()
	now := time.Unix(1_800_000_000, 0)
	signed := incoming(k.Vouch(context.Background(), method, "203.0.113.9", "web", now))
	if v, ok := k.Check(signed, method, now.Add(time.Second)); !ok || v.Client != "203.0.113.9" || v.By != "web" {
		t.Fatalf("a vouch with its own key: %+v %v", v, ok)
	}
	forged := metadata.NewIncomingContext(context.Background(), metadata.Pairs(Header, "v1.d2Vi.1800000000000.MTAuMC4wLjE.AAAA"))
	tampered := func() context.Context {
		md, _ := metadata.FromIncomingContext(signed)
		v := md.Get(Header)[0]
		parts := strings.Split(v, ".")
		parts[3] = "MTAuMC4wLjE" // another client, the old signature
		return metadata.NewIncomingContext(context.Background(), metadata.Pairs(Header, strings.Join(parts, ".")))
	}()
	twice := func() context.Context {
		md, _ := metadata.FromIncomingContext(signed)
		md = md.Copy()
		md.Append(Header, md.Get(Header)[0])
		return metadata.NewIncomingContext(context.Background(), md)
	}()
	for _, c := range []struct {
		name   string
		ctx    context.Context
		key    Key
		method string
		at     time.Time
	}{
		{"no vouch", context.Background(), k, method, now},
		{"a forged header", forged, k, method, now},
		{"another client under the old signature", tampered, k, method, now},
		{"two vouches", twice, k, method, now},
		{"another key", signed, other, method, now},
		{"the zero key", signed, Key{}, method, now},
		{"another method", signed, k, "/orrery.v1.ArenaService/ListMatches", now},
		{"too late", signed, k, method, now.Add(MaxSkew + time.Second)},
		{"too early", signed, k, method, now.Add(-MaxSkew - time.Second)},
	} {
		if v, ok := c.key.Check(c.ctx, c.method, c.at); ok {
			t.Errorf("%s: checked as %+v", c.name, v)
		}
	}
}

func TestVouch_ReplacesAVouchAlreadyInTheCall(t *testing.T) {
	k := NewKey()
	now := time.Now()
	ctx := metadata.NewOutgoingContext(context.Background(), metadata.Pairs(Header, "v1.forged", "authorization", "bearer x"))
	out, _ := metadata.FromOutgoingContext(k.Vouch(ctx, method, "198.51.100.1", "node-a", now))
	if got := out.Get(Header); len(got) != 1 || strings.Contains(got[0], "forged") {
		t.Errorf("vouch header %q", got)
	}
	if out.Get("authorization")[0] != "bearer x" {
		t.Error("Vouch dropped other metadata")
	}
	if v, ok := k.Check(metadata.NewIncomingContext(context.Background(), out), method, now); !ok || v.Client != "198.51.100.1" || v.By != "node-a" {
		t.Errorf("checked %+v %v", v, ok)
	}
}

func TestKeyFrom_RefusesShortKeys(t *testing.T) {
	if _, err := KeyFrom([]byte("short")); err == nil {
		t.Error("a 5-byte key accepted")
	}
	if k, err := KeyFrom([]byte("sixteen bytes!!!")); err != nil || !k.Valid() {
		t.Errorf("a 16-byte key: %v", err)
	}
}

func TestHost(t *testing.T) {
	for in, want := range map[string]string{"127.0.0.1:5000": "127.0.0.1", "[::1]:80": "::1", "bufconn": "bufconn"} {
		if got := Host(in); got != want {
			t.Errorf("Host(%q) = %q, want %q", in, got, want)
		}
	}
}

// A relayed call is a node's only when the cluster's key signed it; the gateway's vouch names
// the HTTP client and no node; anything else is the peer.
func TestTrust_Of(t *testing.T) {
	tr := Trust{Gateway: NewKey(), Cluster: NewKey()}
	now := time.Now()
	peerCtx := func(ctx context.Context) context.Context {
		return peer.NewContext(incoming(ctx), &peer.Peer{Addr: &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 4000}})
	}
	for _, c := range []struct {
		name string
		ctx  context.Context
		want Who
	}{
		{"plain", peerCtx(context.Background()), Who{Name: "192.0.2.7"}},
		{"through the gateway", peerCtx(tr.Gateway.Vouch(context.Background(), method, "203.0.113.1", "web", now)), Who{Name: "203.0.113.1"}},
		{"relayed by a node", peerCtx(tr.Cluster.Vouch(context.Background(), method, "203.0.113.1", "n2", now)), Who{Name: "203.0.113.1", Node: "n2"}},
		{"a forged relay", peerCtx(NewKey().Vouch(context.Background(), method, "203.0.113.1", "n2", now)), Who{Name: "192.0.2.7"}},
		{"the gateway's key posing as a node", peerCtx(tr.Gateway.Vouch(context.Background(), method, "x", "n2", now)), Who{Name: "x"}},
	} {
		if got := tr.Of(c.ctx, method, now); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	if got := (Trust{}).Of(peerCtx(context.Background()), method, now); got.Name != "192.0.2.7" {
		t.Errorf("no keys: %+v", got)
	}
}

// A vouch header of any bytes never panics the checker, and checks only when it is exactly
// what the key signed.
func FuzzCheck(f *testing.F) {
	k := NewKey()
	now := time.Unix(1_800_000_000, 0)
	md, _ := metadata.FromOutgoingContext(k.Vouch(context.Background(), method, "127.0.0.1", "web", now))
	good := md.Get(Header)[0]
	f.Add(good)
	f.Add("v1....")
	f.Add("v1.d2Vi.1800000000000.MTI3LjAuMC4x.")
	f.Add(strings.Repeat(".", 1000))
	f.Fuzz(func(t *testing.T, v string) {
		ctx := metadata.NewIncomingContext(context.Background(), metadata.Pairs(Header, v))
		if _, ok := k.Check(ctx, method, now); ok && v != good {
			t.Errorf("%q checked", v)
		}
	})
}
