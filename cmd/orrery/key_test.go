package main

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
)

// A key pasted with a second line is refused before anything is dialled, saying which byte
// and where the key came from; one pasted with only a newline after it is the key.
func TestKey_APastedSecondLineIsRefusedSayingWhere(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0") // nothing answers here: a dial would hang or fail
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	for _, c := range []struct {
		name, env string
		args      []string
		want      string // in the error
	}{
		{"ladder", "", []string{"--key", "k3y\nsecond line", "--server", addr, "--bot", "random"}, "--key: the key holds byte 0x0a at position 3"},
		{"bot", "k3y\x7f", []string{"list", "--server", addr}, "ORRERY_API_KEY: the key holds byte 0x7f at position 3"},
	} {
		t.Setenv("ORRERY_API_KEY", c.env)
		err := runCmd(context.Background(), c.name, &bytes.Buffer{}, c.args)
		if err == nil || !isUsageError(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("orrery %s %q: %v; want a usage error saying %q", c.name, c.args, err, c.want)
		}
	}
}

func TestKey_SpaceAroundItIsDropped(t *testing.T) {
	t.Setenv("ORRERY_API_KEY", " k3y\n")
	if key, err := keyFrom("", "ORRERY_API_KEY"); err != nil || key != "k3y" {
		t.Errorf("keyFrom = %q, %v; want k3y", key, err)
	}
	if key, err := keyFrom("\tflag-key\r\n", "ORRERY_API_KEY"); err != nil || key != "flag-key" {
		t.Errorf("keyFrom = %q, %v; want flag-key (the flag before the environment)", key, err)
	}
}
