package gateway

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"

	"github.com/orrery/orrery/service/caller"
)

// vouchedBy is the hop id the gateway signs its vouches with.
const vouchedBy = "web"

// clientKey holds the end client's host in a request's context.
type clientKey struct{}

// withClient notes who sent r, for the vouch on the calls it makes.
func withClient(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientKey{}, caller.Host(r.RemoteAddr))))
	})
}

// vouching is the arena connection as the gateway uses it: every call carries a vouch, signed
// with the key the server shares with its gateway, that it is made for the HTTP client that
// asked, so the server counts each client's limits apart and not the gateway as one caller.
type vouching struct {
	grpc.ClientConnInterface
	key caller.Key
}

func (c vouching) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	return c.ClientConnInterface.Invoke(c.vouch(ctx, method), method, args, reply, opts...)
}

func (c vouching) NewStream(ctx context.Context, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	return c.ClientConnInterface.NewStream(c.vouch(ctx, method), desc, method, opts...)
}

func (c vouching) vouch(ctx context.Context, method string) context.Context {
	client, ok := ctx.Value(clientKey{}).(string)
	if !ok {
		return ctx
	}
	return c.key.Vouch(ctx, method, client, vouchedBy, time.Now())
}

// headerMatcher forwards HTTP headers to the arena as grpc-gateway does (Authorization, and
// Grpc-Metadata-* as metadata), except the arena's own: a client may not send a vouch or a
// relay mark of its own making.
func headerMatcher(key string) (string, bool) {
	k := strings.ToLower(key)
	if strings.HasPrefix(k, "grpc-metadata-orrery-") || strings.HasPrefix(k, "orrery-") {
		return "", false
	}
	return runtime.DefaultHeaderMatcher(key)
}
