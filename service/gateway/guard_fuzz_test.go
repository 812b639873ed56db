package gateway

import (
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Any Host, Origin and Content-Type pass through the guard without a panic, and what it lets
// through to the API is a known host and, for a POST, JSON from an allowed origin.
func FuzzGuard(f *testing.F) {
	f.Add("127.0.0.1:8080", "http://127.0.0.1:8080", "application/json", true)
	f.Add("evil.example", "http://evil.example", "text/plain", true)
	f.Add("[::1]:80", "null", "application/json; charset=utf-8", false)
	f.Add("arena.example.", "https://bots.example", "multipart/form-data; boundary=x", true)
	g, err := newGuard(Config{Names: []string{"arena.example", "*.bots.example"}, AllowOrigins: []string{"https://bots.example"}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, host, origin, contentType string, isPost bool) {
		reached := false
		g.next = http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true })
		method := http.MethodGet
		if isPost {
			method = http.MethodPost
		}
		r := httptest.NewRequest(method, "http://127.0.0.1/v1/matches", strings.NewReader("{}"))
		r.Host = host
		r.Header.Set("Origin", origin)
		r.Header.Set("Content-Type", contentType)
		g.ServeHTTP(httptest.NewRecorder(), r)
		if !reached {
			return
		}
		if !g.knownHost(host) {
			t.Errorf("host %q reached the API", host)
		}
		if isPost {
			if mt, _, err := mime.ParseMediaType(contentType); err != nil || mt != "application/json" {
				t.Errorf("a POST of %q reached the API", contentType)
			}
			if origin != "" && !g.sameOrAllowed(origin, host) {
				t.Errorf("a POST from %q reached the API", origin)
			}
		}
	})
}
