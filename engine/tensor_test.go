package engine_test

import (
	"math"
	"testing"

	"github.com/orrery/orrery/engine"
)

func TestRankRewards(t *testing.T) {
	for _, tc := range []struct {
		ranks []int
		want  []float32
	}{
		{[]int{1, 2}, []float32{1, -1}},
		{[]int{2, 1}, []float32{-1, 1}},
		{[]int{1, 1}, []float32{0, 0}},
		{[]int{1, 2, 3}, []float32{1, 0, -1}},
		{[]int{1, 2, 2, 2}, []float32{1, -1.0 / 3, -1.0 / 3, -1.0 / 3}},
		{[]int{1, 1, 3, 4}, []float32{2.0 / 3, 2.0 / 3, -1.0 / 3, -1}},
	} {
		got := make([]float32, len(tc.ranks))
		engine.RankRewards(tc.ranks, got)
		for i := range got {
			if math.Abs(float64(got[i]-tc.want[i])) > 1e-6 {
				t.Errorf("ranks %v: rewards %v, want %v", tc.ranks, got, tc.want)
				break
			}
		}
	}
}
