package main

import (
	"context"
	"testing"
	"time"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// The web gateway reaches its own server's gRPC listener, over TLS when serve has it.
func TestWeb_GatewayDialsItsOwnServer(t *testing.T) {
	cert, key := selfSigned(t)
	conf, err := serverTLS(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		addr string
		tls  bool
	}{{"plaintext", "127.0.0.1:0", false}, {"TLS", "127.0.0.1:0", true}} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := arenaConfig{addr: tc.addr}
			if tc.tls {
				cfg.tls = conf
			}
			a, err := startArena(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer a.stop()
			conn, err := a.dialSelf(cfg.tls)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := orreryv1.NewViewServiceClient(conn).GetView(ctx, &orreryv1.GetViewRequest{MatchId: "none"}); err == nil {
				t.Error("GetView of an unknown match succeeded")
			}
			if _, err := orreryv1.NewArenaServiceClient(conn).ListGames(ctx, &orreryv1.ListGamesRequest{}); err != nil {
				t.Errorf("ListGames: %v", err)
			}
		})
	}
}
