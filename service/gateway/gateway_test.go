package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"go.uber.org/goleak"
	rpccode "google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// database/sql's connection opener lives as long as the process's in-memory store pool.
		goleak.IgnoreTopFunction("database/sql.(*DB).connectionOpener"))
}

// getJSON fetches path and decodes the JSON answer into v; it returns the HTTP status.
func getJSON(t *testing.T, a *arena, path string, v any) int {
	t.Helper()
	resp, err := http.Get(a.web.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return resp.StatusCode
}

func TestAPI_ListGamesUsesProtoNames(t *testing.T) {
	a := newArena(t, arenaOptions{})
	var got struct {
		Games []map[string]any `json:"games"`
	}
	if code := getJSON(t, a, "/v1/games", &got); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	if len(got.Games) != 4 {
		t.Fatalf("%d games, want 4", len(got.Games))
	}
	for _, g := range got.Games {
		for _, field := range []string{"min_seats", "max_seats", "catalog", "real_time"} {
			if _, ok := g[field]; !ok {
				t.Errorf("game %v: no field %q (proto names, zero values included)", g["name"], field)
			}
		}
	}
}

func TestAPI_CreateGetAndListMatches(t *testing.T) {
	a := newArena(t, arenaOptions{})
	resp, err := http.Post(a.web.url+"/v1/matches", "application/json",
		strings.NewReader(`{"game":"icetraders","seats":2,"seed":"7","seat_names":["ann","bob"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		MatchID string `json:"match_id"`
		Seats   []struct {
			Seat  int    `json:"seat"`
			Token string `json:"token"`
		} `json:"seats"`
	}
	json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || created.MatchID == "" || len(created.Seats) != 2 || created.Seats[1].Token == "" {
		t.Fatalf("create: status %d, %+v", resp.StatusCode, created)
	}
	var got struct {
		Match struct {
			MatchID  string `json:"match_id"`
			Status   string `json:"status"`
			SeatInfo []struct {
				Name string `json:"name"`
			} `json:"seat_info"`
		} `json:"match"`
	}
	getJSON(t, a, "/v1/matches/"+created.MatchID, &got)
	if got.Match.Status != "MATCH_STATUS_RUNNING" || len(got.Match.SeatInfo) != 2 || got.Match.SeatInfo[1].Name != "bob" {
		t.Errorf("get: %+v", got.Match)
	}
	var list struct {
		Matches []struct {
			MatchID string `json:"match_id"`
		} `json:"matches"`
	}
	getJSON(t, a, "/v1/matches?status=MATCH_STATUS_RUNNING&game=icetraders", &list)
	if len(list.Matches) != 1 || list.Matches[0].MatchID != created.MatchID {
		t.Errorf("list: %+v", list)
	}
	body, _ := json.Marshal(got)
	if strings.Contains(string(body), created.Seats[0].Token) {
		t.Error("GetMatch shows a seat token")
	}
}

func TestAPI_Errors(t *testing.T) {
	a := newArena(t, arenaOptions{})
	running := a.create("icetraders", 2, 1)
	cases := []struct {
		name, method, path, body string
		status                   int
		code                     codes.Code
	}{
		{"unknown match", "GET", "/v1/matches/nope", "", http.StatusNotFound, codes.NotFound},
		{"replay of a running match", "GET", "/v1/matches/" + running.GetMatchId() + "/replay", "", http.StatusBadRequest, codes.FailedPrecondition},
		{"view of a running match", "GET", "/v1/matches/" + running.GetMatchId() + "/view", "", http.StatusBadRequest, codes.FailedPrecondition},
		{"unknown game", "POST", "/v1/matches", `{"game":"chess","seats":2}`, http.StatusBadRequest, codes.InvalidArgument},
		{"malformed body", "POST", "/v1/matches", `{"game":`, http.StatusBadRequest, codes.InvalidArgument},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, a.web.url+c.path, strings.NewReader(c.body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			}
			json.NewDecoder(resp.Body).Decode(&e)
			if resp.StatusCode != c.status || codes.Code(e.Code) != c.code || e.Message == "" {
				t.Errorf("got %d %+v, want %d %v", resp.StatusCode, e, c.status, c.code)
			}
		})
	}
}

func TestAPI_WatchIsAStreamOfJSONLinesToTheEnd(t *testing.T) {
	a := newArena(t, arenaOptions{})
	m := a.create("icetraders", 2, 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wait := a.playSeats(ctx, "icetraders", m.GetSeats(), 0, nil, nil)
	defer wait()
	resp, err := http.Get(a.web.url + "/v1/matches/" + m.GetMatchId() + "/watch")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 16<<20)
	var views, ended int
	for sc.Scan() {
		var line struct {
			Result map[string]json.RawMessage `json:"result"`
			Error  json.RawMessage            `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("not a JSON line: %q", sc.Text())
		}
		if line.Error != nil {
			t.Fatalf("stream error: %s", line.Error)
		}
		if _, ok := line.Result["view"]; ok {
			views++
		}
		if _, ok := line.Result["ended"]; ok {
			ended++
		}
	}
	if views == 0 || ended != 1 {
		t.Errorf("%d views and %d ends, want some views and one end", views, ended)
	}
}

func TestAPI_ViewOfAFinishedMatch(t *testing.T) {
	a := newArena(t, arenaOptions{})
	m := a.create("planet", 2, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.playSeats(ctx, "planet", m.GetSeats(), 0, nil, nil)()
	var rep struct {
		Steps []json.RawMessage `json:"steps"`
	}
	getJSON(t, a, "/v1/matches/"+m.GetMatchId()+"/replay", &rep)
	var v struct {
		Ply         string         `json:"ply"`
		Plies       string         `json:"plies"`
		Observation map[string]any `json:"observation"`
		Text        string         `json:"text"`
	}
	if code := getJSON(t, a, "/v1/matches/"+m.GetMatchId()+"/view?ply=2&viewer=VIEWER_SEAT&seat=1", &v); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	if v.Ply != "2" || v.Plies == "0" || v.Observation["planet"] == nil || v.Text == "" {
		t.Errorf("view: ply %s of %s, %d replay steps, observation %v", v.Ply, v.Plies, len(rep.Steps), v.Observation != nil)
	}
}

var canonicalCode = regexp.MustCompile(`^[A-Z_]+$`)

func TestPlayBridge(t *testing.T) {
	a := newArena(t, arenaOptions{})
	m := a.create("icetraders", 2, 5)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	wait := a.playSeats(ctx, "icetraders", m.GetSeats()[1:], 0, nil, nil)
	defer wait()
	wsURL := "ws" + strings.TrimPrefix(a.web.url, "http") + "/v1/play"

	t.Run("plays a seat to the end, with a rejection on the way", func(t *testing.T) {
		ws, _, err := websocket.Dial(ctx, wsURL, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		send := func(s string) {
			if err := ws.Write(ctx, websocket.MessageText, []byte(s)); err != nil {
				t.Fatal(err)
			}
		}
		send(`{"join":{"token":"` + m.GetSeats()[0].GetToken() + `"}}`)
		var joined, rejected, ended bool
		badSent := false
		for !ended {
			_, data, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("read: %v (joined %v)", err, joined)
			}
			var msg struct {
				Joined   json.RawMessage `json:"joined"`
				Decision *struct {
					DecisionID string   `json:"decision_id"`
					Legal      []string `json:"legal_notation"`
				} `json:"decision"`
				Rejected json.RawMessage `json:"rejected"`
				Ended    json.RawMessage `json:"ended"`
				Error    json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(data, &msg); err != nil {
				t.Fatal(err)
			}
			switch {
			case msg.Error != nil:
				t.Fatalf("bridge error: %s", msg.Error)
			case msg.Joined != nil:
				joined = true
			case msg.Rejected != nil:
				rejected = true
			case msg.Ended != nil:
				ended = true
			case msg.Decision != nil:
				if !badSent {
					badSent = true
					send(`{"answer":{"decision_id":"` + msg.Decision.DecisionID + `","legal_index":9999}}`)
				}
				send(`{"answer":{"decision_id":"` + msg.Decision.DecisionID + `","legal_index":0}}`)
			}
		}
		if !joined || !rejected {
			t.Errorf("joined %v, rejected %v", joined, rejected)
		}
	})

	cases := []struct {
		name, first string
		code        codes.Code
	}{
		{"an unknown token is refused", `{"join":{"token":"not-a-token"}}`, codes.Unauthenticated},
		{"unreadable JSON ends the stream", `{"join":`, codes.InvalidArgument},
		{"an answer first is refused", `{"answer":{"decision_id":"d0.1","legal_index":0}}`, codes.InvalidArgument},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws, _, err := websocket.Dial(ctx, wsURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.CloseNow()
			ws.Write(ctx, websocket.MessageText, []byte(c.first))
			_, data, err := ws.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var msg struct {
				Error struct {
					Code    string `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			json.Unmarshal(data, &msg)
			// The canonical name, UNAUTHENTICATED, as docs/http.md shows it.
			if want := rpccode.Code(c.code).String(); msg.Error.Code != want || !canonicalCode.MatchString(msg.Error.Code) {
				t.Errorf("got %s, want error %v", data, c.code)
			}
			if _, _, err := ws.Read(ctx); websocket.CloseStatus(err) != websocket.StatusNormalClosure {
				t.Errorf("the socket should close after the error frame: %v", err)
			}
		})
	}

	t.Run("another origin may not open a seat", func(t *testing.T) {
		_, resp, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://evil.example"}}})
		if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("dial from another origin: %v", err)
		}
		if resp != nil && resp.Body != nil {
			io.Copy(io.Discard, resp.Body)
		}
	})
	_ = status.Code
}
