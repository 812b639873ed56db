package episodes

import (
	"context"
	"io"
	"testing"
)

// BenchmarkExport is the export's rate in decisions per second: replaying finished matches
// and writing their rows, as Parquet and as JSON lines, to nowhere.
func BenchmarkExport(b *testing.B) {
	for _, g := range []struct {
		game  string
		opts  map[string]string
		bots  []string
		count int
	}{
		{"planet", nil, []string{"random", "random"}, 20},
		{"icetraders", map[string]string{"turn_cap": "40"}, []string{"random", "random"}, 20},
	} {
		a := &arena{}
		a.play(b, g.game, g.count, g.opts, g.bots, epoch)
		for _, format := range []string{"parquet", "jsonl"} {
			b.Run(g.game+"/"+format, func(b *testing.B) {
				rows := 0
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					w := NewJSONLines(io.Discard)
					if format == "parquet" {
						w = NewParquet(io.Discard)
					}
					st, err := Export(context.Background(), a, Filter{Game: g.game}, w)
					if err != nil {
						b.Fatal(err)
					}
					if err := w.Close(); err != nil {
						b.Fatal(err)
					}
					rows += st.Rows
				}
				b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "decisions/s")
			})
		}
	}
}
