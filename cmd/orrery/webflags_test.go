package main

import (
	"slices"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/orrery/orrery/service/caller"
	"github.com/orrery/orrery/service/gateway"
	"github.com/orrery/orrery/service/limits"
)

// serve's web flags reach the gateway.
func TestWebFlags_ReachTheGateway(t *testing.T) {
	var o webOptions
	f := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	o.addFlags(f)
	if err := f.Parse([]string{"--web-max-body", "1000", "--web-idle-timeout", "5s", "--web-conns-per-address", "7",
		"--web-host", "arena.example,play.example", "--web-allow-origin", "https://bots.example"}); err != nil {
		t.Fatal(err)
	}
	cert, key := selfSigned(t)
	conf, err := serverTLS(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	c := o.config("127.0.0.1:0", nil, nil, conf, caller.NewKey())
	want := gateway.Limits{MaxBody: 1000, ReadHeader: gateway.DefaultReadHeader, Read: gateway.DefaultRead, Write: gateway.DefaultWrite,
		Idle: 5 * time.Second, ConnsPerAddress: 7}
	if c.Limits != want || !slices.Contains(c.Names, "arena.example") || !slices.Contains(c.Names, "play.example") ||
		!slices.Equal(c.AllowOrigins, []string{"https://bots.example"}) || !c.Vouch.Valid() {
		t.Errorf("config %+v", c)
	}
}

// serve's per-caller limit flags reach the limits.
func TestLimitFlags_ReachTheLimits(t *testing.T) {
	var l limits.Config
	f := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	addLimitFlags(f, &l)
	if err := f.Parse([]string{"--max-matches-per-caller", "3", "--open-tournaments", "-1", "--max-rejects-per-second", "7", "--abandoned-expiry", "90s"}); err != nil {
		t.Fatal(err)
	}
	got := l.WithDefaults()
	if got.LivePerCaller != 3 || got.TournamentMatches != -1 || got.RejectsPerSecond != 7 || got.Abandoned != 90*time.Second ||
		got.SpectatorsPerCaller != limits.DefaultSpectatorsPerCaller || got.MessageBytes != limits.DefaultMessageBytes {
		t.Errorf("limits %+v", got)
	}
}
