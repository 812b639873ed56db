package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// guard is what every request passes before the API sees it:
//   - Host is one of the server's names (an IP address, localhost, or a --web-host name), so
//     a page whose DNS name was rebound to this server cannot read or play through it;
//   - a request that changes something (any method but GET, HEAD, OPTIONS) says it is JSON,
//     and comes from the server's own origin or an allowed one when a browser names its
//     origin, so another site's form or script cannot make a match in a visitor's name;
//   - a body is read at most maxBody bytes: past that the answer is 413, and nothing the
//     client sent beyond the limit is held.
type guard struct {
	names   map[string]bool // lower case, without port
	origins map[string]bool // scheme://host[:port], lower case
	maxBody int64
	next    http.Handler
}

func newGuard(c Config) (*guard, error) {
	g := &guard{names: map[string]bool{}, origins: map[string]bool{}, maxBody: c.Limits.WithDefaults().MaxBody}
	for _, n := range c.Names {
		if n == "" || strings.ContainsAny(n, ":/ ") || strings.Contains(strings.TrimPrefix(n, "*."), "*") {
			return nil, fmt.Errorf("gateway: web host %q: want a DNS name, without scheme or port", n)
		}
		g.names[strings.ToLower(strings.TrimSuffix(n, "."))] = true
	}
	for _, o := range c.AllowOrigins {
		o = strings.TrimSuffix(o, "/")
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || strings.ContainsAny(o, "*?[\\") {
			return nil, fmt.Errorf("gateway: allowed origin %q: want scheme://host[:port], e.g. https://example.org", o)
		}
		g.origins[strings.ToLower(o)] = true
	}
	return g, nil
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.knownHost(r.Host) {
		refuse(w, http.StatusMisdirectedRequest, codes.PermissionDenied,
			fmt.Sprintf("host %q is not a name this server answers to (serve --web-host)", clipText(r.Host)))
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
	default:
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			refuse(w, http.StatusUnsupportedMediaType, codes.InvalidArgument, "send the body as Content-Type: application/json")
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !g.sameOrAllowed(origin, r.Host) {
			refuse(w, http.StatusForbidden, codes.PermissionDenied,
				fmt.Sprintf("origin %q may not call this server (serve --web-allow-origin)", clipText(origin)))
			return
		}
	}
	if r.ContentLength > g.maxBody {
		g.tooLarge(w)
		return
	}
	if r.Body != nil && r.Body != http.NoBody {
		body := &boundedBody{ReadCloser: http.MaxBytesReader(w, r.Body, g.maxBody)}
		r.Body = body
		r = r.WithContext(context.WithValue(r.Context(), bodyKey{}, body))
	}
	g.next.ServeHTTP(w, r)
}

// knownHost reports whether a request's Host is the server's: an IP address (no DNS name to
// rebind), localhost, or a configured name.
func (g *guard) knownHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if host == "" {
		return false
	}
	if net.ParseIP(host) != nil || host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	if g.names[host] {
		return true
	}
	// A wildcard name (a certificate's *.example.org) covers one label.
	if _, parent, ok := strings.Cut(host, "."); ok {
		return g.names["*."+parent]
	}
	return false
}

// sameOrAllowed reports whether origin is the server's own (its host is the request's, which
// knownHost has checked) or one of --web-allow-origin.
func (g *guard) sameOrAllowed(origin, host string) bool {
	if g.origins[strings.ToLower(origin)] {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, host)
}

func (g *guard) tooLarge(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	refuse(w, http.StatusRequestEntityTooLarge, codes.ResourceExhausted,
		fmt.Sprintf("request body over %d bytes (serve --web-max-body)", g.maxBody))
}

// originPatterns are the allowed origins as the WebSocket library matches them.
func (g *guard) originPatterns() []string {
	var out []string
	for o := range g.origins {
		out = append(out, o)
	}
	return out
}

// boundedBody is a request body under http.MaxBytesReader that remembers going over, so that
// the API's error handler answers 413 (grpc-gateway turns a body it cannot read into a plain
// InvalidArgument).
type boundedBody struct {
	io.ReadCloser
	over bool
}

func (b *boundedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		b.over = true
	}
	return n, err
}

type bodyKey struct{}

// errorHandler is grpc-gateway's, except that a body cut off at the limit is 413.
func (g *guard) errorHandler(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	if b, ok := r.Context().Value(bodyKey{}).(*boundedBody); ok && b.over {
		g.tooLarge(w)
		return
	}
	runtime.DefaultHTTPErrorHandler(ctx, mux, m, w, r, err)
}

// refuse answers as the API answers errors: {"code", "message", "details"}.
func refuse(w http.ResponseWriter, httpStatus int, code codes.Code, msg string) {
	body, _ := Marshaler.Marshal(status.New(code, msg).Proto())
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(httpStatus)
	w.Write(body)
}

// clipText shortens client text quoted in a refusal.
func clipText(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	return strings.ToValidUTF8(s[:max], "") + "…"
}
