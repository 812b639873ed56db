package ladder

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestQueue_Match(t *testing.T) {
	params := Params{
		Tables:    map[string]Table{"g": {Seats: 3, MinSeats: 2, House: 2}},
		Window:    2,
		Widen:     1, // per second
		FillAfter: 10 * time.Second,
	}
	type bot struct {
		id    int64
		mu    float64
		waits time.Duration // before now
		room  int
	}
	tests := []struct {
		name   string
		bots   []bot
		want   [][]int64 // bots of each group, in the order formed
		fills  []int
		remain []int64 // still queued after
	}{
		{
			name: "three close bots form a match at once",
			bots: []bot{{1, 25, 0, 1}, {2, 26, 0, 1}, {3, 24, 0, 1}},
			want: [][]int64{{1, 3, 2}}, fills: []int{0},
		},
		{
			name:   "too far apart and too fresh: everyone waits",
			bots:   []bot{{1, 10, 0, 1}, {2, 20, 0, 1}, {3, 30, 0, 1}},
			remain: []int64{1, 2, 3},
		},
		{
			name: "a long wait widens the window",
			bots: []bot{{1, 10, 9 * time.Second, 1}, {2, 20, 0, 1}, {3, 15, 0, 1}},
			want: [][]int64{{1, 3, 2}}, fills: []int{0},
		},
		{
			name: "the oldest anchors and takes the nearest, not the first",
			bots: []bot{{1, 25, 5 * time.Second, 1}, {2, 29, 0, 1}, {3, 25.5, 0, 1}, {4, 24, 0, 1}, {5, 22, 0, 1}},
			want: [][]int64{{1, 3, 4}}, fills: []int{0}, remain: []int64{2, 5},
		},
		{
			name: "after FillAfter house bots complete a lone bot's match",
			bots: []bot{{1, 25, 10 * time.Second, 1}},
			want: [][]int64{{1}}, fills: []int{2},
		},
		{
			name: "after FillAfter a pair is completed by one house bot",
			bots: []bot{{1, 25, 11 * time.Second, 1}, {2, 35, 0, 1}},
			want: [][]int64{{1, 2}}, fills: []int{1},
		},
		{
			name: "a bot with room for two stays queued after one match",
			bots: []bot{{1, 25, 0, 2}, {2, 25, 0, 1}, {3, 25, 0, 1}},
			want: [][]int64{{1, 2, 3}}, fills: []int{0}, remain: []int64{1},
		},
		{
			name: "six equal bots make two matches, the longest waiting first",
			bots: []bot{{1, 25, 1, 1}, {2, 25, 2, 1}, {3, 25, 3, 1}, {4, 25, 4, 1}, {5, 25, 5, 1}, {6, 25, 6, 1}},
			want: [][]int64{{6, 5, 4}, {3, 2, 1}}, fills: []int{0, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := NewQueue(params)
			now := t0.Add(time.Hour)
			for _, b := range tt.bots {
				q.Put(b.id, []string{"g"}, []float64{b.mu}, now.Add(-b.waits), b.room)
			}
			got := q.Match(now)
			if len(got) != len(tt.want) {
				t.Fatalf("groups %v, want %v", got, tt.want)
			}
			for i, g := range got {
				if !slices.Equal(g.Bots, tt.want[i]) || g.Fill != tt.fills[i] || g.Game != "g" {
					t.Errorf("group %d: %v fill %d, want %v fill %d", i, g.Bots, g.Fill, tt.want[i], tt.fills[i])
				}
			}
			var remain []int64
			for _, b := range tt.bots {
				if q.Waiting(b.id) != nil {
					remain = append(remain, b.id)
				}
			}
			if !slices.Equal(remain, tt.remain) {
				t.Errorf("still queued %v, want %v", remain, tt.remain)
			}
		})
	}
}

func TestQueue_TwoGamesShareRoom(t *testing.T) {
	q := NewQueue(Params{Tables: map[string]Table{"a": {Seats: 2, MinSeats: 2}, "b": {Seats: 2, MinSeats: 2}}, Window: 1})
	both := []string{"a", "b"}
	q.Put(1, both, []float64{25, 25}, t0, 1)
	q.Put(2, both, []float64{25, 25}, t0, 1)
	q.Put(3, []string{"b"}, []float64{25}, t0, 1)
	got := q.Match(t0)
	// Game a is matched first (games go in name order) and takes bots 1 and 2; bot 3 has
	// nobody left to play b with.
	if len(got) != 1 || got[0].Game != "a" || !slices.Equal(got[0].Bots, []int64{1, 2}) {
		t.Errorf("got %v", got)
	}
	if q.Len() != 1 || q.Waiting(3) == nil {
		t.Errorf("queue holds %d, want bot 3 alone", q.Len())
	}
}

func TestQueue_NoHouseAndTooFewSeatsWaits(t *testing.T) {
	q := NewQueue(Params{Tables: map[string]Table{"g": {Seats: 4, MinSeats: 3, House: 1}}, FillAfter: time.Second})
	q.Put(1, []string{"g"}, []float64{25}, t0, 1)
	if got := q.Match(t0.Add(time.Hour)); len(got) != 0 {
		t.Errorf("one bot and one house bot make %v; the game needs 3", got)
	}
}

// BenchmarkMatchmaking is one matchmaking pass over 10,000 queued bots of one 4-seat game.
func BenchmarkMatchmaking(b *testing.B) {
	for _, bc := range []struct {
		name   string
		spread float64 // ratings apart: 0 random around 25, else a ladder of steps this wide
	}{
		{"form", 0},     // nearly everyone finds a match: about 2,500 matches formed
		{"wait", 100.0}, // nobody is close enough: the pass finds nothing
	} {
		b.Run(bc.name, func(b *testing.B) {
			const n = 10000
			p := Params{Tables: map[string]Table{"icetraders": {Seats: 4, MinSeats: 2, House: 6}}, Window: 3, Widen: 0.1, FillAfter: time.Hour}
			r := rand.New(rand.NewPCG(1, 2))
			mus := make([]float64, n)
			waits := make([]time.Duration, n)
			for i := range mus {
				mus[i] = 25 + 8*r.NormFloat64()
				if bc.spread > 0 {
					mus[i] = float64(i) * bc.spread
				}
				waits[i] = time.Duration(r.Int64N(int64(time.Minute)))
			}
			now := t0.Add(time.Hour)
			games := []string{"icetraders"}
			formed := 0
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				q := NewQueue(p)
				for j := range mus {
					q.Put(int64(j), games, mus[j:j+1], now.Add(-waits[j]), 1)
				}
				b.StartTimer()
				formed = len(q.Match(now))
			}
			b.ReportMetric(float64(formed), "matches")
		})
	}
}

func TestQueue_GamesTakeTurns(t *testing.T) {
	q := NewQueue(Params{Tables: map[string]Table{"a": {Seats: 2, MinSeats: 2, House: 1}, "b": {Seats: 2, MinSeats: 2, House: 1}}, FillAfter: time.Second})
	var got []string
	for range 4 {
		q.Put(1, []string{"a", "b"}, []float64{25, 25}, t0, 1)
		g := q.Match(t0.Add(time.Minute))
		if len(g) != 1 || g[0].Fill != 1 {
			t.Fatalf("%v: want one filled match", g)
		}
		got = append(got, g[0].Game)
	}
	if !slices.Equal(got, []string{"a", "b", "a", "b"}) {
		t.Errorf("a bot with room for one match at a time played %v, want the games in turn", got)
	}
}
