package episodes

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Handler serves finished matches as episodes, as Kaggle's API lists and serves them:
//
//	GET /v1/episodes?game=G&since=RFC3339&page_size=N&page_token=T   the finished matches, JSON
//	GET /v1/episodes/{match_id}[?seat=S][&format=parquet]            its rows, JSON lines or Parquet
func Handler(src Source) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/episodes", func(w http.ResponseWriter, r *http.Request) { list(w, r, src) })
	mux.HandleFunc("GET /v1/episodes/{match_id}", func(w http.ResponseWriter, r *http.Request) { serve(w, r, src) })
	return mux
}

// Episode is one finished match in the list.
type Episode struct {
	MatchID string    `json:"match_id"`
	Game    string    `json:"game"`
	Seats   int32     `json:"seats"`
	Plies   int64     `json:"plies"`
	Ended   time.Time `json:"ended"`
	Reason  string    `json:"reason"`
	URL     string    `json:"url"`
}

func list(w http.ResponseWriter, r *http.Request, src Source) {
	q := r.URL.Query()
	req := &orreryv1.ListMatchesRequest{Game: q.Get("game"), Status: orreryv1.MatchStatus_MATCH_STATUS_FINISHED, PageToken: q.Get("page_token")}
	if s := q.Get("page_size"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 500 {
			http.Error(w, "page_size: want 1 to 500", http.StatusBadRequest)
			return
		}
		req.PageSize = int32(n)
	}
	var since time.Time
	if s := q.Get("since"); s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			http.Error(w, "since: want an RFC 3339 time, as 2026-12-01T00:00:00Z", http.StatusBadRequest)
			return
		}
		since = t
	}
	page, err := src.ListMatches(r.Context(), req)
	if err != nil {
		httpError(w, err)
		return
	}
	out := struct {
		Episodes      []Episode `json:"episodes"`
		NextPageToken string    `json:"next_page_token,omitempty"`
	}{Episodes: []Episode{}, NextPageToken: page.GetNextPageToken()}
	for _, m := range page.GetMatches() {
		ended := m.GetEnded().AsTime()
		if !since.IsZero() && ended.Before(since) {
			continue
		}
		out.Episodes = append(out.Episodes, Episode{
			MatchID: m.GetMatchId(), Game: m.GetGame(), Seats: m.GetSeats(), Plies: m.GetPly(), Ended: ended,
			Reason: strings.ToLower(strings.TrimPrefix(m.GetResult().GetReason().String(), "END_REASON_")),
			URL:    "/v1/episodes/" + m.GetMatchId(),
		})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

func serve(w http.ResponseWriter, r *http.Request, src Source) {
	id := r.PathValue("match_id")
	q := r.URL.Query()
	var keep func(int) bool
	if s := q.Get("seat"); s != "" {
		seat, err := strconv.Atoi(s)
		if err != nil || seat < 0 {
			http.Error(w, "seat: want a seat number", http.StatusBadRequest)
			return
		}
		keep = func(x int) bool { return x == seat }
	}
	format := q.Get("format")
	if format != "" && format != "jsonl" && format != "parquet" {
		http.Error(w, "format: want jsonl or parquet", http.StatusBadRequest)
		return
	}
	rep, err := src.GetReplay(r.Context(), &orreryv1.GetReplayRequest{MatchId: id})
	if err != nil {
		httpError(w, err)
		return
	}
	rows, err := Rows(rep, keep, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	var out Writer
	if format == "parquet" {
		w.Header().Set("Content-Type", "application/vnd.apache.parquet")
		w.Header().Set("Content-Disposition", `attachment; filename="`+id+`.parquet"`)
		out = NewParquet(w)
	} else {
		w.Header().Set("Content-Type", "application/x-ndjson")
		out = NewJSONLines(w)
	}
	if err := out.Write(rows); err == nil {
		out.Close()
	}
}

// httpError answers a Source's error with the HTTP status of its gRPC code.
func httpError(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	if s, ok := status.FromError(err); ok {
		switch s.Code() {
		case codes.NotFound:
			code = http.StatusNotFound
		case codes.InvalidArgument:
			code = http.StatusBadRequest
		case codes.FailedPrecondition:
			code = http.StatusConflict // a running match has no replay yet
		}
		err = errors.New(s.Message())
	}
	http.Error(w, err.Error(), code)
}
