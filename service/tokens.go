package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net"
	"strings"

	"google.golang.org/grpc/peer"
)

// caller names who called, for per-caller limits: the peer's host. In-process callers (the
// ladder) have none and are not limited.
func caller(ctx context.Context) string {
	p, ok := peer.FromContext(ctx)
	if !ok || p.Addr == nil {
		return ""
	}
	if host, _, err := net.SplitHostPort(p.Addr.String()); err == nil {
		return host
	}
	return p.Addr.String()
}

func hashToken(token string) [32]byte { return sha256.Sum256([]byte(token)) }

func randomToken() string {
	var b [32]byte
	rand.Read(b[:]) // crypto/rand never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// seatToken is a new seat token of match id: the match's id, a dot, and the secret. The id
// lets any node of a cluster find the match a join is for without searching (forward.go);
// only the whole token's hash, kept by the match, admits the seat.
func seatToken(id string) string { return id + "." + randomToken() }

// tokenMatch is the id of the match a seat token names (seatToken), or "" for a token from
// before that format (a secret alone, without a dot), which names none.
func tokenMatch(token string) string {
	id, _, named := strings.Cut(token, ".")
	if !named {
		return ""
	}
	return id
}
