package gateway

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/caller"
	"github.com/orrery/orrery/service/limits"
)

// countingListener counts the bytes the server reads from its connections.
type countingListener struct {
	net.Listener
	read *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{Conn: c, read: l.read}, nil
}

type countingConn struct {
	net.Conn
	read *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

// hugeCreate is a CreateMatchRequest whose seat name is n bytes of 'a': JSON the decoder would
// have to hold whole before any check could see it.
type hugeCreate struct {
	n, sent int64
	head    string
}

func (h *hugeCreate) Read(p []byte) (int, error) {
	if h.sent >= h.n {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && h.sent < h.n {
		switch {
		case h.sent < int64(len(h.head)):
			p[k] = h.head[h.sent]
		case h.sent == h.n-3:
			p[k] = '"'
		case h.sent == h.n-2:
			p[k] = ']'
		case h.sent == h.n-1:
			p[k] = '}'
		default:
			p[k] = 'a'
		}
		k++
		h.sent++
	}
	return k, nil
}

// rawPost sends a POST of body over a raw connection (chunked when length < 0) and reads the
// answer, which may come before the body is sent: an HTTP client would report the broken pipe
// of a server that stopped reading instead of its answer.
func rawPost(t *testing.T, addr string, body io.Reader, length int64) *http.Response {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	head := "POST /v1/matches HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\n"
	if length < 0 {
		head += "Transfer-Encoding: chunked\r\n\r\n"
	} else {
		head += fmt.Sprintf("Content-Length: %d\r\n\r\n", length)
	}
	go func() {
		w := bufio.NewWriterSize(c, 64<<10)
		w.WriteString(head)
		buf := make([]byte, 32<<10)
		for {
			n, err := body.Read(buf)
			if n > 0 {
				if length < 0 {
					fmt.Fprintf(w, "%x\r\n", n)
				}
				if _, werr := w.Write(buf[:n]); werr != nil {
					return
				}
				if length < 0 {
					w.WriteString("\r\n")
				}
			}
			if err != nil {
				break
			}
		}
		if length < 0 {
			w.WriteString("0\r\n\r\n")
		}
		w.Flush()
	}()
	c.SetReadDeadline(time.Now().Add(time.Minute))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// The reproduction: a 1.2 GB JSON string streamed to POST /v1/matches took the server
// to out of memory inside grpc-gateway's decoder. Now it is refused with 413 after at most the
// limit, and the server neither reads nor allocates anything near the body's size.
func TestGateway_RefusesABodyOverTheLimitWith413(t *testing.T) {
	a := newArena(t, arenaOptions{})
	h, err := Handler(a.conn, Config{})
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var read atomic.Int64
	hs := &http.Server{Handler: h}
	go hs.Serve(countingListener{Listener: lis, read: &read})
	t.Cleanup(func() { hs.Close() })
	const size = 1_200_000_000
	body := func() *hugeCreate {
		return &hugeCreate{n: size, head: `{"game":"icetraders","seats":2,"seat_names":["`}
	}

	for _, c := range []struct {
		name   string
		length int64
	}{{"streamed, length unknown", -1}, {"with its length declared", size}} {
		t.Run(c.name, func(t *testing.T) {
			read.Store(0)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			resp := rawPost(t, lis.Addr().String(), body(), c.length)
			msg, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			runtime.ReadMemStats(&after)
			if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(msg), "--web-max-body") {
				t.Errorf("status %d %s, want 413 naming --web-max-body", resp.StatusCode, msg)
			}
			// The server reads the limit and what the kernel had buffered, nothing like 1.2 GB.
			if got := read.Load(); got > 4*DefaultMaxBody {
				t.Errorf("the server read %d bytes of a %d-byte body; the limit is %d", got, int64(size), DefaultMaxBody)
			}
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<20 {
				t.Errorf("the process allocated %d MB for a refused body", grown>>20)
			}
		})
	}

	t.Run("a body under the limit still creates its match", func(t *testing.T) {
		ok := `{"game":"icetraders","seats":2,"seat_names":["ann","bob"]}`
		resp := rawPost(t, lis.Addr().String(), strings.NewReader(ok), int64(len(ok)))
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("status %d", resp.StatusCode)
		}
	})
}

// post sends a POST /v1/matches with the given content type and headers.
func post(t *testing.T, url, contentType, body string, header http.Header) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/v1/matches", strings.NewReader(body))
	for k, v := range header {
		req.Header[k] = v
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// POST routes accepted text/plain, form and multipart bodies from any origin: a form on any
// site could make matches in a visitor's name. Now a POST must be JSON, and from the server's
// own origin or an allowed one when a browser names its origin.
func TestGateway_CSRF_PostNeedsJSONAndAnAllowedOrigin(t *testing.T) {
	a := newArena(t, arenaOptions{web: Config{AllowOrigins: []string{"https://bots.example"}}})
	body := `{"game":"icetraders","seats":2}`
	own := http.Header{"Origin": {a.web.url}}
	cases := []struct {
		name, contentType string
		header            http.Header
		want              int
	}{
		{"text/plain", "text/plain", nil, http.StatusUnsupportedMediaType},
		{"a form", "application/x-www-form-urlencoded", nil, http.StatusUnsupportedMediaType},
		{"multipart", "multipart/form-data; boundary=x", nil, http.StatusUnsupportedMediaType},
		{"no content type", "", nil, http.StatusUnsupportedMediaType},
		{"JSON from another origin", "application/json", http.Header{"Origin": {"http://evil.example"}}, http.StatusForbidden},
		{"JSON from a null origin", "application/json", http.Header{"Origin": {"null"}}, http.StatusForbidden},
		{"JSON without an origin (curl, a bot)", "application/json", nil, http.StatusOK},
		{"JSON from the server's own page", "application/json; charset=utf-8", own, http.StatusOK},
		{"JSON from an allowed origin", "application/json", http.Header{"Origin": {"https://bots.example"}}, http.StatusOK},
	}
	created := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, msg := post(t, a.web.url, c.contentType, body, c.header)
			if code != c.want {
				t.Errorf("status %d %s, want %d", code, msg, c.want)
			}
			if code == http.StatusOK {
				created++
			}
		})
	}
	list, err := a.client.ListMatches(context.Background(), &orreryv1.ListMatchesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.GetMatches()) != created {
		t.Errorf("%d matches exist, want only the %d accepted", len(list.GetMatches()), created)
	}
	if _, err := Handler(a.conn, Config{AllowOrigins: []string{"https://*.example"}}); err == nil {
		t.Error("a pattern as an allowed origin was accepted")
	}
}

// No Host check let a page whose DNS name was rebound to the server read the API, and the
// WebSocket accepted a spoofed Origin that matched a spoofed Host. Now Host must be an IP
// address, localhost or one of the server's names.
func TestGateway_HostCheckedAgainstTheServersNames(t *testing.T) {
	a := newArena(t, arenaOptions{web: Config{Names: []string{"arena.example", "*.bots.example"}}})
	get := func(host string) int {
		req, _ := http.NewRequest(http.MethodGet, a.web.url+"/v1/games", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	port := a.web.url[strings.LastIndex(a.web.url, ":"):]
	for host, want := range map[string]int{
		"127.0.0.1" + port:      http.StatusOK,
		"localhost" + port:      http.StatusOK,
		"[::1]" + port:          http.StatusOK,
		"arena.example":         http.StatusOK,
		"ARENA.example." + port: http.StatusOK,
		"rebound.evil.example":  http.StatusMisdirectedRequest,
		"arena.example.evil":    http.StatusMisdirectedRequest,
		"ada.bots.example":      http.StatusOK,
		"a.b.bots.example":      http.StatusMisdirectedRequest,
		"bots.example":          http.StatusMisdirectedRequest,
	} {
		if got := get(host); got != want {
			t.Errorf("Host %s: status %d, want %d", host, got, want)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	wsURL := "ws" + strings.TrimPrefix(a.web.url, "http") + "/v1/play"
	_, resp, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{
		Host: "rebound.evil.example", HTTPHeader: http.Header{"Origin": {"http://rebound.evil.example"}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a WebSocket whose Origin matches a spoofed Host: %v", err)
	}
	ws, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {a.web.url}}})
	if err != nil {
		t.Fatalf("the server's own page: %v", err)
	}
	ws.CloseNow()
}

// dialFrom is an HTTP client whose connections come from local address ip (a loopback alias).
func dialFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// All HTTP clients shared one creation quota: the gateway called the server as one caller.
// Now each call carries a vouch, signed with the key the server shares with its gateway, for
// the HTTP client that made it; a vouch or relay mark a client sends itself is not passed on.
func TestGateway_VouchesForEachHTTPClient(t *testing.T) {
	key := caller.NewKey()
	var mu sync.Mutex
	seen := map[string][]string{} // method → vouched clients, "" for none that checks
	var forged []string
	authorize := func(ctx context.Context, method string) (context.Context, error) {
		v, _ := key.Check(ctx, method, time.Now())
		mu.Lock()
		defer mu.Unlock()
		seen[method] = append(seen[method], v.Client)
		md, _ := metadataFrom(ctx)
		forged = append(forged, md...)
		return ctx, nil
	}
	a := newArena(t, arenaOptions{web: Config{Vouch: key}, authorize: authorize})
	body := `{"game":"icetraders","seats":2}`
	for _, ip := range []string{"127.0.0.1", "127.0.0.2"} {
		req, _ := http.NewRequest(http.MethodPost, a.web.url+"/v1/matches", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Grpc-Metadata-Orrery-Vouch", "v1.forged")
		req.Header.Set("Grpc-Metadata-Orrery-Forwarded-By", "node-a")
		resp, err := dialFrom(ip).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("create from %s: %d", ip, resp.StatusCode)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(a.web.url, "http")+"/v1/play", &websocket.DialOptions{
		HTTPClient: dialFrom("127.0.0.2")})
	if err != nil {
		t.Fatal(err)
	}
	ws.Write(ctx, websocket.MessageText, []byte(`{"join":{"token":"nope"}}`))
	ws.Read(ctx)
	ws.CloseNow()

	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(seen[orreryv1.ArenaService_CreateMatch_FullMethodName], ","); got != "127.0.0.1,127.0.0.2" {
		t.Errorf("CreateMatch vouched for %q, want each HTTP client", got)
	}
	if got := strings.Join(seen[orreryv1.ArenaService_Play_FullMethodName], ","); got != "127.0.0.2" {
		t.Errorf("the Play bridge vouched for %q, want its page's host", got)
	}
	if len(forged) > 0 {
		t.Errorf("client-made metadata reached the server: %v", forged)
	}
}

// metadataFrom lists the arena's own metadata keys of an incoming call that are not the
// gateway's vouch (orrery-forwarded-by, a second orrery-vouch).
func metadataFrom(ctx context.Context) ([]string, bool) {
	md, ok := metadata.FromIncomingContext(ctx)
	var out []string
	for k, v := range md {
		if k == caller.Header && len(v) == 1 && !strings.Contains(v[0], "forged") {
			continue
		}
		if strings.HasPrefix(k, "orrery-") {
			out = append(out, k+"="+strings.Join(v, ";"))
		}
	}
	return out, ok
}

// Idle keep-alives and slow bodies never timed out: 19,990 idle connections from one address
// took every file descriptor. Now a connection that sends nothing, a body that trickles and a
// kept-alive connection left idle are closed, and one address holds a bounded number.
func TestGateway_TimeoutsAndConnectionsPerAddress(t *testing.T) {
	a := newArena(t, arenaOptions{})
	lim := Limits{ReadHeader: 300 * time.Millisecond, Read: 600 * time.Millisecond, Write: time.Second, Idle: 400 * time.Millisecond, ConnsPerAddress: 3}
	s, err := Start(Config{Addr: "127.0.0.1:0", Conn: a.conn, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// closedWithin reports whether the server closes c within d.
	closedWithin := func(c net.Conn, d time.Duration) bool {
		c.SetReadDeadline(time.Now().Add(d))
		_, err := io.Copy(io.Discard, c)
		var ne net.Error
		return err == nil || !(errors.As(err, &ne) && ne.Timeout())
	}
	dial := func(from string) net.Conn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c, err := d.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	t.Run("half a header", func(t *testing.T) {
		c := dial("127.0.0.3")
		io.WriteString(c, "GET /v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
		if !closedWithin(c, 5*time.Second) {
			t.Error("a connection that never finished its headers stayed open")
		}
	})
	t.Run("a body that trickles", func(t *testing.T) {
		c := dial("127.0.0.3")
		io.WriteString(c, "POST /v1/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
		if !closedWithin(c, 5*time.Second) {
			t.Error("a body that stopped coming held its connection")
		}
	})
	t.Run("an idle keep-alive", func(t *testing.T) {
		c := dial("127.0.0.3")
		io.WriteString(c, "GET /v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		if !closedWithin(c, 5*time.Second) {
			t.Error("an idle kept-alive connection stayed open")
		}
	})
	t.Run("connections per address", func(t *testing.T) {
		var held []net.Conn
		for range lim.ConnsPerAddress {
			held = append(held, dial("127.0.0.4"))
		}
		time.Sleep(50 * time.Millisecond) // the server has accepted them
		if !closedWithin(dial("127.0.0.4"), 200*time.Millisecond) {
			t.Error("one connection more than the limit from one address was kept")
		}
		if closedWithin(dial("127.0.0.5"), 100*time.Millisecond) {
			t.Error("another address was refused")
		}
		held[0].Close()
		time.Sleep(50 * time.Millisecond)
		if closedWithin(dial("127.0.0.4"), 100*time.Millisecond) {
			t.Error("a freed slot was not given to the next connection")
		}
	})
	t.Run("a Watch outlives the request timeouts", func(t *testing.T) {
		m := a.create("icetraders", 2, 11)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		g := newGate(false) // the bots wait until the stream has been quiet past every timeout
		wait := a.playSeats(ctx, "icetraders", m.GetSeats(), 0, g, nil)
		defer wait()
		defer g.release()
		time.AfterFunc(lim.Read+lim.Write+lim.Idle, g.release)
		start := time.Now()
		resp, err := http.Get("http://" + s.Addr() + "/v1/matches/" + m.GetMatchId() + "/watch")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 16<<20)
		ended := false
		for sc.Scan() {
			ended = ended || strings.Contains(sc.Text(), `"ended"`)
		}
		if took := time.Since(start); !ended || took < lim.Read+lim.Write {
			t.Errorf("watch ended %v after %v (read timeout %v): want the end, past the timeouts", ended, took, lim.Read)
		}
	})
}

// The reproduction: 65 curl POSTs locked every HTTP client out, and every gRPC client
// on the gateway's host, as the gateway called the server as one caller. Now each HTTP client
// has its own quota, and a vouch a gRPC client makes up counts as nothing.
func TestGateway_EachHTTPClientHasItsOwnQuota(t *testing.T) {
	key := caller.NewKey()
	a := newArena(t, arenaOptions{web: Config{Vouch: key}, limits: limits.Config{CreatesPerMinute: 2}})
	create := func(ip string) int {
		req, _ := http.NewRequest(http.MethodPost, a.web.url+"/v1/matches", strings.NewReader(`{"game":"icetraders","seats":2}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := dialFrom(ip).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i, s := range []struct {
		ip   string
		want int
	}{{"127.0.0.2", 200}, {"127.0.0.2", 200}, {"127.0.0.2", 429}, {"127.0.0.3", 200}, {"127.0.0.3", 200}, {"127.0.0.3", 429}} {
		if got := create(s.ip); got != s.want {
			t.Errorf("create %d from %s: status %d, want %d", i, s.ip, got, s.want)
		}
	}
	// The gRPC client on the gateway's own host (127.0.0.1) was not counted for them.
	req := &orreryv1.CreateMatchRequest{Game: "icetraders", Seats: 2}
	if _, err := a.client.CreateMatch(context.Background(), req); err != nil {
		t.Errorf("a gRPC client beside the gateway: %v", err)
	}
	// A gRPC client that sends a vouch of another key's making is itself.
	forged := forgedVouch(t, "198.51.100.9")
	a.client.CreateMatch(metadata.NewOutgoingContext(context.Background(), forged), req)
	if _, err := a.client.CreateMatch(metadata.NewOutgoingContext(context.Background(), forged), req); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("a forged vouch escaped its sender's quota: %v", err)
	}
}

// forgedVouch is a vouch for client signed with a key the server does not hold.
func forgedVouch(t *testing.T, client string) metadata.MD {
	md, _ := metadata.FromOutgoingContext(caller.NewKey().Vouch(context.Background(), orreryv1.ArenaService_CreateMatch_FullMethodName, client, "web", time.Now()))
	return md
}
