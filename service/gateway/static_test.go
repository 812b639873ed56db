package gateway

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// get fetches path from the arena's web server with headers.
func (a *arena) get(t *testing.T, path string, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, a.web.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	// A transport of its own: the default one would unpack gzip and hide it.
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWeb_FilesAndJSONAreGzippedAndRevalidated(t *testing.T) {
	a := newArena(t, arenaOptions{})
	for _, path := range []string{"/vendor/three.module.min.js", "/app.js", "/", "/v1/games"} {
		t.Run(path, func(t *testing.T) {
			plainResp, plain := a.get(t, path, nil)
			if plainResp.StatusCode != http.StatusOK || plainResp.Header.Get("Content-Encoding") != "" {
				t.Fatalf("without gzip: %s, encoding %q", plainResp.Status, plainResp.Header.Get("Content-Encoding"))
			}
			resp, zipped := a.get(t, path, map[string]string{"Accept-Encoding": "gzip, br"})
			if resp.Header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("asked for gzip: encoding %q", resp.Header.Get("Content-Encoding"))
			}
			if !bytes.Equal(gunzip(t, zipped), plain) {
				t.Error("the gzipped answer is not the plain one")
			}
			if len(zipped) >= len(plain) {
				t.Errorf("gzipped %d bytes, plain %d", len(zipped), len(plain))
			}
			etag := resp.Header.Get("ETag")
			if etag == "" || resp.Header.Get("Cache-Control") == "" || resp.Header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("headers: ETag %q, Cache-Control %q, Vary %q", etag, resp.Header.Get("Cache-Control"), resp.Header.Get("Vary"))
			}
			again, body := a.get(t, path, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag})
			if again.StatusCode != http.StatusNotModified || len(body) != 0 {
				t.Errorf("asked again with its ETag: %s and %d bytes, want 304 and none", again.Status, len(body))
			}
		})
	}
	if resp, _ := a.get(t, "/no-such-file.js", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a missing file: %s", resp.Status)
	}
	if resp, _ := a.get(t, "/v1/matches/nope", map[string]string{"Accept-Encoding": "gzip"}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown match: %s, want 404 as before", resp.Status)
	}
}

func TestWeb_AFinishedReplayIsMadeOnce(t *testing.T) {
	var calls atomic.Int32
	a := newArena(t, arenaOptions{authorize: func(ctx context.Context, method string) (context.Context, error) {
		if method == orreryv1.ArenaService_GetReplay_FullMethodName {
			calls.Add(1)
		}
		return ctx, nil
	}})
	m := a.create("icetraders", 2, 4)
	a.playSeats(context.Background(), "icetraders", m.GetSeats(), 0, nil, nil)()
	path := "/v1/matches/" + m.GetMatchId() + "/replay"
	first, body := a.get(t, path, map[string]string{"Accept-Encoding": "gzip"})
	second, again := a.get(t, path, map[string]string{"Accept-Encoding": "gzip"})
	if first.StatusCode != http.StatusOK || second.StatusCode != http.StatusOK || !bytes.Equal(body, again) {
		t.Fatalf("%s then %s, same body %v", first.Status, second.Status, bytes.Equal(body, again))
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("two visits made the replay %d times, want once", n)
	}
	if cc := second.Header.Get("Cache-Control"); !strings.Contains(cc, "max-age") {
		t.Errorf("a finished replay's Cache-Control is %q", cc)
	}
	// A running match has no replay: its refusal is not kept.
	live := a.create("icetraders", 2, 5)
	for range 2 {
		if resp, _ := a.get(t, "/v1/matches/"+live.GetMatchId()+"/replay", nil); resp.StatusCode == http.StatusOK {
			t.Error("a running match's replay was served")
		}
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("%d GetReplay calls, want the running match's two asked through", n)
	}
}
