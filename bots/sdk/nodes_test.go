package sdk_test

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	"github.com/orrery/orrery/service"
)

// tcpArena serves a fresh arena on a loopback port and returns its address.
func tcpArena(t *testing.T) string {
	t.Helper()
	srv, err := service.New(service.Config{})
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := service.NewGRPCServer(srv, service.GRPCOptions{})
	go gs.Serve(lis)
	t.Cleanup(func() { srv.Close(); gs.Stop() })
	return lis.Addr().String()
}

// deadAddr is a loopback address nothing listens on.
func deadAddr(t *testing.T) string {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	return addr
}

func TestSplitAddrs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a:1", "[a:1]"},
		{"a:1,b:2, c:3", "[a:1 b:2 c:3]"},
		{" a:1 ,, ", "[a:1]"},
		{"", "[]"},
	} {
		if got := sdk.SplitAddrs(c.in); fmt.Sprint(got) != c.want {
			t.Errorf("SplitAddrs(%q) = %v, want %s", c.in, got, c.want)
		}
	}
}

// A seat given several addresses, the first of them dead, joins through the next one (after
// its backoff) and plays its match to the end there; later calls keep to the live node.
func TestNodes_ADeadAddressIsPassedOver(t *testing.T) {
	live := tcpArena(t)
	nodes, err := sdk.Dial([]string{deadAddr(t), live}, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer nodes.Close()
	direct, err := grpc.NewClient(live, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	c := create(t, direct)
	ctx := context.Background()
	errs := make(chan error, 2)
	for i, s := range c.GetSeats() {
		go func() {
			end, err := sdk.Play(ctx, nodes, s.GetToken(), random.New(uint64(i)), sdk.Options{MaxBackoff: 100 * time.Millisecond})
			if err == nil && end == nil {
				t.Error("no end")
			}
			errs <- err
		}()
	}
	for range c.GetSeats() {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if nodes.Addr() != live {
		t.Errorf("calls go to %s, want the live node %s", nodes.Addr(), live)
	}
}

func TestNodes_NoAddressIsAnError(t *testing.T) {
	if _, err := sdk.Dial(nil); err == nil {
		t.Error("Dial with no address succeeded")
	}
}
