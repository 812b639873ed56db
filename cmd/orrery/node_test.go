package main

import (
	"context"
	"strings"
	"testing"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/limits"
)

func TestServe_NodeFlagsNeedPostgresAndAReachableAddress(t *testing.T) {
	pg := "postgres://orrery@db:5432/orrery"
	for _, c := range []struct {
		name      string
		o         serveOptions
		wantAddr  string
		wantError string
	}{
		{"one server", serveOptions{dbPath: "orrery.db", addr: "127.0.0.1:7070"}, "", ""},
		{"advertise alone", serveOptions{dbPath: pg, addr: "127.0.0.1:7070", advertise: "h:1"}, "", "--advertise needs --node-id"},
		{"node on SQLite", serveOptions{dbPath: "orrery.db", addr: "10.0.0.1:7070", nodeID: "a"}, "", "postgres:// URL"},
		{"node on --addr", serveOptions{dbPath: pg, addr: "10.0.0.1:7070", nodeID: "a"}, "10.0.0.1:7070", ""},
		{"unspecified --addr", serveOptions{dbPath: pg, addr: "0.0.0.0:7070", nodeID: "a"}, "", "pass --advertise"},
		{"advertised", serveOptions{dbPath: pg, addr: "0.0.0.0:7070", nodeID: "a", advertise: "node-a.internal:7070"}, "node-a.internal:7070", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			n, err := nodeOf(c.o)
			switch {
			case c.wantError != "":
				if err == nil || !strings.Contains(err.Error(), c.wantError) {
					t.Errorf("error %v, want one saying %q", err, c.wantError)
				}
			case err != nil:
				t.Fatal(err)
			case c.wantAddr == "" && n != nil:
				t.Errorf("node %+v, want none", n)
			case c.wantAddr != "" && (n == nil || n.Addr != c.wantAddr || n.ID != c.o.nodeID):
				t.Errorf("node %+v, want %s at %s", n, c.o.nodeID, c.wantAddr)
			}
		})
	}
}

// A cluster node says which node it is, and where its peers reach it, once ready; a lone
// server prints no cluster line.
func TestServe_ReadySaysWhichClusterNode(t *testing.T) {
	find := func(eps []endpoint) string {
		for _, e := range eps {
			if e.what == "cluster" {
				return e.where
			}
		}
		return ""
	}
	if got := find(endpoints("127.0.0.1:7070", false, nil, "", "orrery.db", nil)); got != "" {
		t.Errorf("a lone server prints a cluster line: %q", got)
	}
	got := find(endpoints("10.0.0.1:7070", false, nil, "", "postgres://db/orrery", &service.Node{ID: "node-a", Addr: "node-a.internal:7070"}))
	if !strings.Contains(got, "node node-a") || !strings.Contains(got, "node-a.internal:7070") {
		t.Errorf("cluster line %q: want the node's id and advertised address", got)
	}
}

// The arena play and tournament start for themselves has one caller, the command: a
// tournament of more than a minute's worth of matches (the README's runs 200) is not refused
// by the open server's per-caller create limit.
func TestConnect_OwnArenaDoesNotLimitItsCreates(t *testing.T) {
	conn, closeConn, err := connect("", arenaConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeConn()
	client := orreryv1.NewArenaServiceClient(conn)
	for i := 0; i <= limits.DefaultCreatesPerMinute; i++ {
		if _, err := client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: "icetraders", Seats: 2}); err != nil {
			t.Fatalf("match %d: %v", i+1, err)
		}
	}
}
