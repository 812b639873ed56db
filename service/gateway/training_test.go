package gateway

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
)

// TestAPI_TrainIsAStreamOfJSONLines steps a batch over HTTP: the request body is the stream's
// messages, one JSON object each, and the answer one line per response.
func TestAPI_TrainIsAStreamOfJSONLines(t *testing.T) {
	a := newArena(t, arenaOptions{})
	// Slot 0, face 0, rotation 0 is legal at every seat's first Planet decision.
	ids := base64.StdEncoding.EncodeToString(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 0), 0))
	body := `{"open":{"game":"planet","seats":2,"seeds":["1","2"],"controlled_seats":[0]}}` + "\n" +
		`{"step":{"action_ids":"` + ids + `"}}` + "\n"
	resp, err := http.Post(a.web.url+"/v1/train", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	var lines []map[string]map[string]json.RawMessage
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q: %v", sc.Text()[:min(80, len(sc.Text()))], err)
		}
		lines = append(lines, m)
	}
	if len(lines) != 2 || lines[0]["result"]["spec"] == nil || lines[1]["result"]["results"] == nil {
		t.Fatalf("got %d lines, want the spec and one step's results", len(lines))
	}
	var res struct {
		Seats        []int32  `json:"seats"`
		Observations []byte   `json:"observations"`
		EpisodeSeeds []string `json:"episode_seeds"`
	}
	if err := json.Unmarshal(lines[1]["result"]["results"], &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Seats) != 2 || len(res.Observations) != 2*4*planetSize(t) || res.EpisodeSeeds[1] != "2" {
		t.Errorf("results: seats %v, %d observation bytes, seeds %v", res.Seats, len(res.Observations), res.EpisodeSeeds)
	}
}

func TestAPI_EpisodesOfFinishedMatches(t *testing.T) {
	a := newArena(t, arenaOptions{})
	m := a.create("planet", 2, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.playSeats(ctx, "planet", m.GetSeats(), 0, nil, nil)()
	var list struct {
		Episodes []struct {
			MatchID string `json:"match_id"`
			URL     string `json:"url"`
		} `json:"episodes"`
	}
	if code := getJSON(t, a, "/v1/episodes?game=planet", &list); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	if len(list.Episodes) != 1 || list.Episodes[0].MatchID != m.GetMatchId() {
		t.Fatalf("episodes %+v, want the one finished match", list.Episodes)
	}
	resp, err := http.Get(a.web.url + list.Episodes[0].URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n := 0
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var row struct {
			Seat        int       `json:"seat"`
			Observation []float32 `json:"observation"`
			ActionIDs   []int32   `json:"action_ids"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil || len(row.Observation) != planetSize(t) || len(row.ActionIDs) != 1 {
			t.Fatalf("row %d: %v", n, err)
		}
		n++
	}
	if n != 24 {
		t.Errorf("%d rows, want 24: 12 turns of 2 seats", n)
	}
}

// planetSize is the length of a 2-seat Planet tensor.
func planetSize(t *testing.T) int {
	tz, _, err := engine.TensorsOf("planet", engine.Config{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	return engine.ObservationSize(tz)
}
