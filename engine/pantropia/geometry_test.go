package pantropia

import "testing"

// TestSphere_DerivedCounts checks the icosidodecahedron derived from coordinates: 30
// intersections of two colors each, every color pair at exactly two antipodal intersections,
// 60 struts of one color each, degree 4 and 180 joints.
func TestSphere_DerivedCounts(t *testing.T) {
	g := Geo
	if len(g.Intersections) != 30 || len(g.Struts) != 60 || len(g.Joints) != 180 {
		t.Fatalf("counts %d/%d/%d", len(g.Intersections), len(g.Struts), len(g.Joints))
	}
	pairs := map[[2]Color][]int{}
	for i, x := range g.Intersections {
		if x.Colors[0] >= x.Colors[1] {
			t.Errorf("i%d colors %v not two ascending colors", i, x.Colors)
		}
		for _, c := range x.Colors {
			if d := x.Pos.dot(g.Normals[c]); d > 1e-9 || d < -1e-9 {
				t.Errorf("i%d not on circle %s", i, c)
			}
		}
		pairs[x.Colors] = append(pairs[x.Colors], i)
	}
	if len(pairs) != 15 {
		t.Errorf("%d color pairs, want 15", len(pairs))
	}
	for cs, sites := range pairs {
		if len(sites) != 2 {
			t.Errorf("pair %v at %d intersections, want 2", cs, len(sites))
			continue
		}
		a, b := g.Intersections[sites[0]].Pos, g.Intersections[sites[1]].Pos
		if s := a.sub(b.scale(-1)); s.dot(s) > 1e-9 {
			t.Errorf("pair %v sites %v are not antipodal", cs, sites)
		}
		if g.Intersections[sites[0]].Antipode != int16(sites[1]) {
			t.Errorf("antipode of i%d is %d, want %d", sites[0], g.Intersections[sites[0]].Antipode, sites[1])
		}
		p := pairIndex(cs[0], cs[1])
		if g.PairSites[p] != [2]int16{int16(sites[0]), int16(sites[1])} {
			t.Errorf("PairSites[%d] = %v, want %v", p, g.PairSites[p], sites)
		}
	}
	deg := map[int16]int{}
	perColor := map[Color]int{}
	for s, st := range g.Struts {
		perColor[st.Color]++
		deg[st.A]++
		deg[st.B]++
		for _, end := range []int16{st.A, st.B} {
			if !g.Touches(int(end), st.Color) {
				t.Errorf("s%d %s ends at i%d off its circle", s, st.Color, end)
			}
		}
		ca, cb := g.Intersections[st.A].Colors, g.Intersections[st.B].Colors
		shared := 0
		for _, x := range ca {
			for _, y := range cb {
				if x == y {
					shared++
				}
			}
		}
		if shared != 1 {
			t.Errorf("s%d: ends share %d circles, want exactly one (its color)", s, shared)
		}
	}
	for i := range g.Intersections {
		if deg[int16(i)] != 4 {
			t.Errorf("i%d degree %d", i, deg[int16(i)])
		}
	}
	for c := Color(0); c < NumColors; c++ {
		if perColor[c] != 10 {
			t.Errorf("circle %s has %d struts, want 10 (a decagon)", c, perColor[c])
		}
	}
}

// TestSphere_JointAdjacency checks the joints: three in a line per strut, and at an
// intersection the four end joints are all adjacent to each other (resolution 2).
func TestSphere_JointAdjacency(t *testing.T) {
	for j, jt := range Geo.Joints {
		k := j % 3
		if int(jt.Strut) != j/3 {
			t.Errorf("j%d strut %d", j, jt.Strut)
		}
		want := 1
		if k == 1 {
			want = 2
		}
		if len(jt.Along) != want {
			t.Errorf("j%d has %d along-neighbors, want %d", j, len(jt.Along), want)
		}
		if k == 1 {
			if jt.At != -1 || len(jt.Through) != 0 {
				t.Errorf("middle joint j%d touches an intersection", j)
			}
			continue
		}
		if len(jt.Through) != 3 {
			t.Errorf("end joint j%d has %d through-neighbors, want 3", j, len(jt.Through))
		}
		for _, n := range jt.Through {
			if Geo.Joints[n].At != jt.At {
				t.Errorf("j%d and j%d meet at different intersections", j, n)
			}
		}
	}
}
