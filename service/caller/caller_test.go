package caller

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/metadata"
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
