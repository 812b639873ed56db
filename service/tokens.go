package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"

	"google.golang.org/grpc"

	"github.com/orrery/orrery/service/caller"
)

// caller is who ctx's call is for, for per-caller limits: the HTTP client the server's own
// gateway vouched for, the client a node of the cluster relayed the call for (Who.Node set),
// else the peer's host. In-process callers (the ladder) have none ("") and are not limited.
func (s *Server) caller(ctx context.Context) caller.Who {
	if s.cluster != nil {
		return s.cluster.Caller(ctx)
	}
	method, _ := grpc.Method(ctx)
	return caller.Trust{Gateway: s.cfg.Gateway}.Of(ctx, method, s.now())
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
