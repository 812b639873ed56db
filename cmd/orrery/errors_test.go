package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestExplain_EveryCodeIsASentence(t *testing.T) {
	tests := []struct {
		code codes.Code
		msg  string
		want string
	}{
		{codes.Unavailable, `connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:7070: connect: connection refused"`, "no Orrery server at 127.0.0.1:7070; start one with `orrery serve` or pass --server"},
		{codes.Unavailable, "server shutting down", "unavailable (server shutting down); it may be restarting"},
		{codes.DeadlineExceeded, "context deadline exceeded", "did not answer in time"},
		{codes.Canceled, "context canceled", "cancelled"},
		{codes.Unauthenticated, "unknown API key", "refused the key (unknown API key); pass --key or set ORRERY_API_KEY"},
		{codes.PermissionDenied, "only the admin key may name another bot", "not allowed with this key"},
		{codes.NotFound, "no match m-1", "not found on 127.0.0.1:7070: no match m-1; `orrery matches`"},
		{codes.InvalidArgument, "seats: 9 is out of 2-6", "refused the request: seats: 9 is out of 2-6; see --help"},
		{codes.FailedPrecondition, "the match has not ended", "not possible now: the match has not ended"},
		{codes.AlreadyExists, "bot x exists", "already exists: bot x exists; choose another name"},
		{codes.ResourceExhausted, "too many matches", "at a limit: too many matches"},
		{codes.Aborted, "conflict", "try again"},
		{codes.OutOfRange, "page", "out of range: page"},
		{codes.Unimplemented, "unknown service orrery.v1.LadderService", "does not offer this"},
		{codes.Internal, "boom", "failed: boom; its log says more"},
		{codes.Unknown, "boom", "failed: boom"},
		{codes.DataLoss, "boom", "failed: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.code.String(), func(t *testing.T) {
			err := fmt.Errorf("match m-1: %w", status.Error(tt.code, tt.msg))
			got := explain(err, "127.0.0.1:7070")
			if strings.Contains(got.Error(), "rpc error") || strings.Contains(got.Error(), "code =") {
				t.Errorf("raw status in %q", got)
			}
			if !strings.Contains(got.Error(), tt.want) || !strings.HasPrefix(got.Error(), "match m-1: ") {
				t.Errorf("got %q, want it to contain %q after the context", got, tt.want)
			}
			if status.Code(got) != tt.code {
				t.Errorf("code %v, want %v kept", status.Code(got), tt.code)
			}
			if again := explain(got, "127.0.0.1:7070"); again.Error() != got.Error() {
				t.Errorf("explained twice: %q", again)
			}
		})
	}
	if err := explain(fmt.Errorf("plain"), "x"); err.Error() != "plain" {
		t.Errorf("a plain error changed: %q", err)
	}
}

func TestExplain_NoServerSaysHowToStartOne(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close() // nothing listens there now
	for _, args := range [][]string{
		{"standings", "--server", addr},
		{"bot", "list", "--server", addr},
	} {
		var stderr bytes.Buffer
		err := execute(context.Background(), &bytes.Buffer{}, &stderr, args)
		want := "no Orrery server at " + addr + "; start one with `orrery serve` or pass --server"
		if err == nil || !strings.Contains(stderr.String(), want) || strings.Contains(stderr.String(), "rpc error") {
			t.Errorf("%v: err %v, stderr:\n%s", args, err, stderr.String())
		}
	}
}
