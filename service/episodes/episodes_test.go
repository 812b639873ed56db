package episodes

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/orrery/orrery/engine"
)

var epoch = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

// TestExport_HundredMatchesReadBackWithSchema exports 100 finished matches as Parquet and as
// JSON lines, reads both back, and finds the schema and every row that Rows builds.
func TestExport_HundredMatchesReadBackWithSchema(t *testing.T) {
	a := &arena{}
	a.play(t, "planet", 100, nil, []string{"random", "greedy"}, epoch)
	a.running("planet")
	var want []Row
	for _, rep := range a.matches[1:] {
		var err error
		if want, err = Rows(rep, nil, want); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	for _, format := range []string{"parquet", "jsonl"} {
		t.Run(format, func(t *testing.T) {
			path := filepath.Join(dir, "planet."+format)
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			w := NewJSONLines(f)
			if format == "parquet" {
				w = NewParquet(f)
			}
			st, err := Export(context.Background(), a, Filter{Game: "planet"}, w)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if st.Matches != 100 || st.Rows != len(want) {
				t.Fatalf("exported %+v, want 100 matches and %d rows (the running match has none)", st, len(want))
			}
			var got []Row
			if format == "parquet" {
				got = readParquet(t, path)
			} else {
				got = readJSONLines(t, path)
			}
			if len(got) != len(want) {
				t.Fatalf("read %d rows back, wrote %d", len(got), len(want))
			}
			// The export lists newest first, as want does; every row is the one Rows built.
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("row %d read back differs:\n got %+v\nwant %+v", i, got[i].MatchID, want[i].MatchID)
				}
			}
		})
	}
	for _, r := range want {
		checkRow(t, r)
	}
}

// checkRow checks one row against its game's layout: shapes, the chosen id among the legal
// ones, rewards that sum to zero.
func checkRow(t *testing.T, r Row) {
	t.Helper()
	tz, _, err := engine.TensorsOf(r.Game, engine.Config{Seats: len(r.Rewards)})
	if err != nil {
		t.Fatal(err)
	}
	heads := len(tz.Heads())
	if len(r.Observation) != engine.ObservationSize(tz) || len(r.ActionIDs) != heads || len(r.LegalIDs)%heads != 0 {
		t.Fatalf("row %s ply %d: %d floats, %d action ids, %d legal ids", r.MatchID, r.Ply, len(r.Observation), len(r.ActionIDs), len(r.LegalIDs))
	}
	found := false
	for k := 0; k < len(r.LegalIDs); k += heads {
		found = found || slices.Equal(r.LegalIDs[k:k+heads], r.ActionIDs)
	}
	if !found {
		t.Errorf("row %s ply %d: action ids %v are not among the legal ones", r.MatchID, r.Ply, r.ActionIDs)
	}
	var sum float32
	for _, x := range r.Rewards {
		sum += x
	}
	if sum > 1e-5 || sum < -1e-5 || r.Reward != r.Rewards[r.Seat] {
		t.Errorf("row %s: rewards %v, reward %v of seat %d", r.MatchID, r.Rewards, r.Reward, r.Seat)
	}
}

func readParquet(t *testing.T, path string) []Row {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	// The schema, as a reader with no Go type sees it.
	want := map[string]string{
		"match_id": "BYTE_ARRAY", "game": "BYTE_ARRAY", "ply": "INT32", "seat": "INT32",
		"observation": "FLOAT", "legal_ids": "INT32", "action_ids": "INT32", "reward": "FLOAT", "rewards": "FLOAT",
	}
	lists := []string{"observation", "legal_ids", "action_ids", "rewards"}
	fields := pf.Schema().Fields()
	if len(fields) != len(want) {
		t.Fatalf("schema has %d columns: %v", len(fields), pf.Schema())
	}
	for _, fd := range fields {
		leaf := fd
		if slices.Contains(lists, fd.Name()) {
			if lt := fd.Type().LogicalType(); lt == nil || lt.String() != "LIST" {
				t.Errorf("column %s is not a LIST", fd.Name())
				continue
			}
			leaf = fd.Fields()[0].Fields()[0] // list.element
		}
		if got := leaf.Type().Kind().String(); got != want[fd.Name()] {
			t.Errorf("column %s holds %s, want %s", fd.Name(), got, want[fd.Name()])
		}
	}
	if n := pf.NumRows(); n == 0 {
		t.Fatal("no rows")
	}
	rows, err := parquet.Read[Row](f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func readJSONLines(t *testing.T, path string) []Row {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []Row
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r Row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d: %v", len(rows)+1, err)
		}
		rows = append(rows, r)
	}
	return rows
}

func TestExport_Filters(t *testing.T) {
	a := &arena{}
	a.play(t, "planet", 6, nil, []string{"random", "random"}, epoch)
	a.play(t, "planet", 4, nil, []string{"greedy", "random"}, epoch.Add(time.Hour))
	a.play(t, "icetraders", 3, map[string]string{"turn_cap": "20"}, []string{"random", "random"}, epoch)
	for _, tc := range []struct {
		name    string
		f       Filter
		matches int
		seat    int32 // the only seat exported, or -1
	}{
		{"game", Filter{Game: "planet"}, 10, -1},
		{"other game", Filter{Game: "icetraders"}, 3, -1},
		{"since", Filter{Game: "planet", Since: epoch.Add(time.Hour)}, 4, -1},
		{"bots", Filter{Game: "planet", Bots: []string{"greedy"}}, 4, 0},
		{"limit", Filter{Game: "planet", Limit: 5}, 5, -1},
		{"nobody", Filter{Game: "planet", Bots: []string{"mcts"}}, 0, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rows collect
			st, err := Export(context.Background(), a, tc.f, &rows)
			if err != nil {
				t.Fatal(err)
			}
			if st.Matches != tc.matches {
				t.Errorf("%d matches, want %d", st.Matches, tc.matches)
			}
			for _, r := range rows {
				if r.Game != tc.f.Game || (tc.seat >= 0 && r.Seat != tc.seat) {
					t.Fatalf("row of %s seat %d exported", r.Game, r.Seat)
				}
			}
		})
	}
	if _, err := Export(context.Background(), a, Filter{}, &collect{}); err == nil {
		t.Error("an export without a game was accepted")
	}
}

// collect is a Writer that keeps the rows.
type collect []Row

func (c *collect) Write(rows []Row) error { *c = append(*c, rows...); return nil }
func (c *collect) Close() error           { return nil }

func TestHandler_ListsAndServesEpisodes(t *testing.T) {
	a := &arena{}
	a.play(t, "planet", 3, nil, []string{"random", "random"}, epoch)
	a.running("planet")
	srv := httptest.NewServer(Handler(a))
	defer srv.Close()
	get := func(path string) (*http.Response, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, body := get("/v1/episodes?game=planet")
	var list struct{ Episodes []Episode }
	if err := json.Unmarshal([]byte(body), &list); err != nil || resp.StatusCode != 200 {
		t.Fatalf("list: %d %s", resp.StatusCode, body)
	}
	if len(list.Episodes) != 3 || list.Episodes[0].URL != "/v1/episodes/"+list.Episodes[0].MatchID {
		t.Fatalf("listed %+v, want the 3 finished matches", list.Episodes)
	}
	id := list.Episodes[0].MatchID
	resp, body = get("/v1/episodes/" + id + "?seat=1")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("serve: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	lines := strings.Split(strings.TrimSpace(body), "\n")
	if len(lines) != 12 {
		t.Errorf("seat 1 of a 2-seat Planet match made %d decisions, want 12", len(lines))
	}
	for _, l := range lines {
		var r Row
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Seat != 1 || r.MatchID != id {
			t.Fatalf("row %q: %v", l[:min(80, len(l))], err)
		}
		checkRow(t, r)
	}
	resp, body = get("/v1/episodes/" + id + "?format=parquet")
	if resp.StatusCode != 200 || !strings.HasPrefix(body, "PAR1") {
		t.Errorf("parquet: %d, starts %q", resp.StatusCode, body[:min(4, len(body))])
	}
	for _, tc := range []struct {
		path string
		code int
	}{
		{"/v1/episodes/live", http.StatusConflict},
		{"/v1/episodes/nope", http.StatusNotFound},
		{"/v1/episodes/" + id + "?format=csv", http.StatusBadRequest},
		{"/v1/episodes/" + id + "?seat=x", http.StatusBadRequest},
		{"/v1/episodes?since=yesterday", http.StatusBadRequest},
		{"/v1/episodes?page_size=9999", http.StatusBadRequest},
	} {
		if resp, body := get(tc.path); resp.StatusCode != tc.code {
			t.Errorf("GET %s: %d %s, want %d", tc.path, resp.StatusCode, strings.TrimSpace(body), tc.code)
		}
	}
}
