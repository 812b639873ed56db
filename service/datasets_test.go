package service

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/datasets"
	"github.com/orrery/orrery/service/store"
)

// dataGame is repeatGame with a data-set option that, like Planet's, takes only inline JSON.
type dataGame struct{ repeatGame }

func (dataGame) Info() engine.Info {
	return engine.Info{Name: "test-data", Title: "Data", MinSeats: 2, MaxSeats: 2,
		Options: []engine.Option{{Name: "data", Data: true}}}
}

func (dataGame) New(cfg engine.Config) (engine.State, error) {
	if v := cfg.Options["data"]; v != "" && !json.Valid([]byte(v)) {
		return nil, fmt.Errorf("%w: data: not JSON", engine.ErrBadOption)
	}
	return &repeatState{}, nil
}

func init() { engine.Register(dataGame{}) }

// No client ever names a server file: a path is refused by the server before any engine
// sees it, and a name resolves to bytes stored with the match, so a restart (or a replay)
// reads no file.
func TestCreate_NoClientNamesAServerFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "set1.json"), []byte(`{"tiles":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(t.TempDir(), "orrery.db")
	db, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Config{Store: db, DataSets: datasets.Resolver{Dir: dir}})
	ctx := context.Background()
	for _, v := range []string{"/etc/passwd", "../" + filepath.Base(dir) + "/set1", ".set1", "missing"} {
		_, err := h.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "test-data", Seats: 2, Options: map[string]string{"data": v}})
		if status.Code(err) != codes.InvalidArgument || strings.Contains(err.Error(), "root:") || strings.Contains(err.Error(), dir) {
			t.Errorf("data %q: got %v, want InvalidArgument naming no file", v, err)
		}
	}
	created := h.create(&orreryv1.CreateMatchRequest{Game: "test-data", Seats: 2, Options: map[string]string{"data": "set1"}})
	got, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
	if err != nil || got.GetMatch().GetOptions()["data"] != `{"tiles":[]}` {
		t.Fatalf("stored options %v, %v", got.GetMatch().GetOptions(), err)
	}
	// The file goes away; the match resumes from the store alone.
	os.Remove(filepath.Join(dir, "set1.json"))
	h.srv.Close()
	db.Close()
	db2, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	h2 := newHarness(t, Config{Store: db2})
	got, err = h2.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
	if err != nil || got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
		t.Errorf("after restart: %v, %v", got, err)
	}
}

// The reproduction: 1 MiB inline data sets were in every listing (300 matches made
// each listing 314 MB). Now ListMatches carries a summary without them; GetMatch has the data
// set with its match.
func TestListMatches_CarriesNoDataSets(t *testing.T) {
	for _, stored := range []bool{false, true} {
		cfg := Config{}
		if stored {
			cfg.Store = memStore(t)
		}
		h := newHarness(t, cfg)
		ctx := context.Background()
		data := `{"pad":"` + strings.Repeat("x", 1<<20-16) + `"}`
		var ids []string
		for range 3 {
			ids = append(ids, h.create(&orreryv1.CreateMatchRequest{Game: "test-data", Seats: 2, Options: map[string]string{"data": data}}).GetMatchId())
		}
		list, err := h.client.ListMatches(ctx, &orreryv1.ListMatchesRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.GetMatches()) != 3 {
			t.Fatalf("stored %v: %d matches listed", stored, len(list.GetMatches()))
		}
		if n := proto.Size(list); n > 16<<10 {
			t.Errorf("stored %v: a listing of 3 matches is %d bytes", stored, n)
		}
		got, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: ids[0]})
		if err != nil || got.GetMatch().GetOptions()["data"] != data {
			t.Errorf("stored %v: GetMatch lost the data set: %v", stored, err)
		}
	}
}
