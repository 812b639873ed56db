package pantropia

import (
	"math"
	"sort"
)

// The sphere is the icosidodecahedron: six great circles (decagons) crossing at 30
// intersections, joined by 60 struts of 3 joints each. Everything below is derived from the
// vertex coordinates at init; nothing about its shape is typed in.
const (
	NumColors        = 6
	NumIntersections = 30
	NumStruts        = 60
	NumJoints        = 3 * NumStruts
	strutsPerNode    = 4
)

// Color indexes the six resource colors, in the order of the great circles' colors.
type Color int8

const (
	Red Color = iota
	Orange
	Yellow
	Green
	Blue
	Purple
	Black // only on the permanent die
)

var colorNames = [...]string{"red", "orange", "yellow", "green", "blue", "purple", "black"}

func (c Color) String() string {
	if c < 0 || int(c) >= len(colorNames) {
		return "?"
	}
	return colorNames[c]
}

// Vec is a point in space.
type Vec struct{ X, Y, Z float64 }

func (a Vec) dot(b Vec) float64 { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }
func (a Vec) sub(b Vec) Vec     { return Vec{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }
func (a Vec) cross(b Vec) Vec {
	return Vec{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}
func (a Vec) scale(k float64) Vec { return Vec{a.X * k, a.Y * k, a.Z * k} }
func (a Vec) lerp(b Vec, t float64) Vec {
	return Vec{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t, a.Z + (b.Z-a.Z)*t}
}

// Intersection is a vertex of the sphere, on exactly two great circles.
type Intersection struct {
	Pos       Vec
	Colors    [2]Color // ascending
	Struts    [strutsPerNode]int16
	Neighbors [strutsPerNode]int16 // the intersection at the other end of each strut
	Antipode  int16
}

// Strut is an edge, on exactly one great circle. Joint 3*id is at A, 3*id+2 at B.
type Strut struct {
	Color Color
	A, B  int16
}

// Joint is a place for one ring.
type Joint struct {
	Strut int16
	Pos   Vec
	// Along lists the joints next to this one on its own strut (1 or 2 of them).
	Along []int16
	// At is the intersection this end joint touches, -1 for a middle joint; Through lists the
	// other end joints there (adjacent unless another player's arcology stands at At).
	At      int16
	Through []int16
}

// Sphere is the derived geometry.
type Sphere struct {
	Normals       [NumColors]Vec // the normal of each color's great circle
	Intersections [NumIntersections]Intersection
	Struts        [NumStruts]Strut
	Joints        [NumJoints]Joint
	// PairSites lists the two intersections of each color pair, indexed by pairIndex.
	PairSites [15][2]int16
}

// Geo is the sphere every match shares; it is immutable after init.
var Geo = buildSphere()

const eps = 1e-9

// buildSphere derives the sphere from the icosidodecahedron's vertices: (0,0,±φ) with its
// cyclic permutations, and the cyclic permutations of (±1/2, ±φ/2, ±φ²/2).
func buildSphere() *Sphere {
	phi := (1 + math.Sqrt(5)) / 2
	var verts []Vec
	for _, s := range []float64{1, -1} {
		verts = append(verts, Vec{0, 0, s * phi}, Vec{s * phi, 0, 0}, Vec{0, s * phi, 0})
	}
	for _, sa := range []float64{1, -1} {
		for _, sb := range []float64{1, -1} {
			for _, sc := range []float64{1, -1} {
				a, b, c := sa/2, sb*phi/2, sc*phi*phi/2
				verts = append(verts, Vec{a, b, c}, Vec{b, c, a}, Vec{c, a, b})
			}
		}
	}
	// Struts join the vertices at the shortest distance.
	minD := math.Inf(1)
	for i := range verts {
		for j := i + 1; j < len(verts); j++ {
			d := verts[i].sub(verts[j]).dot(verts[i].sub(verts[j]))
			minD = math.Min(minD, d)
		}
	}
	// Each strut spans a plane through the centre: its great circle. Collect the distinct
	// normals with a canonical sign, and sort them so colors are assigned stably.
	var normals []Vec
	for i := range verts {
		for j := i + 1; j < len(verts); j++ {
			d := verts[i].sub(verts[j]).dot(verts[i].sub(verts[j]))
			if d > minD+eps {
				continue
			}
			n := canonical(verts[i].cross(verts[j]))
			found := false
			for _, m := range normals {
				found = found || m.sub(n).dot(m.sub(n)) < eps
			}
			if !found {
				normals = append(normals, n)
			}
		}
	}
	if len(normals) != NumColors {
		panic("pantropia: the icosidodecahedron should have six great circles")
	}
	sort.Slice(normals, func(i, j int) bool { return vecLess(normals[j], normals[i]) })
	g := &Sphere{}
	copy(g.Normals[:], normals)

	// Intersections sorted by their color pair, then by position, so ids are stable.
	type node struct {
		pos    Vec
		colors [2]Color
	}
	nodes := make([]node, len(verts))
	for i, v := range verts {
		nodes[i].pos = v
		k := 0
		for c, n := range normals {
			if math.Abs(v.dot(n)) < 1e-6 {
				if k == 2 {
					panic("pantropia: a vertex on three circles")
				}
				nodes[i].colors[k] = Color(c)
				k++
			}
		}
		if k != 2 {
			panic("pantropia: a vertex not on two circles")
		}
	}
	sort.Slice(nodes, func(i, j int) bool {
		if nodes[i].colors != nodes[j].colors {
			a, b := nodes[i].colors, nodes[j].colors
			return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
		}
		return vecLess(nodes[j].pos, nodes[i].pos)
	})
	var perPair [15]int
	for i, n := range nodes {
		g.Intersections[i] = Intersection{Pos: n.pos, Colors: n.colors, Antipode: -1}
		p := pairIndex(n.colors[0], n.colors[1])
		if perPair[p] == 2 {
			panic("pantropia: a color pair at more than two intersections")
		}
		g.PairSites[p][perPair[p]] = int16(i)
		perPair[p]++
	}
	for i := range g.Intersections {
		for j := range g.Intersections {
			s := g.Intersections[i].Pos
			t := g.Intersections[j].Pos
			if s.scale(-1).sub(t).dot(s.scale(-1).sub(t)) < eps {
				g.Intersections[i].Antipode = int16(j)
			}
		}
	}
	// Struts sorted by color, then by their ends.
	k := 0
	for c := Color(0); c < NumColors; c++ {
		for a := 0; a < NumIntersections; a++ {
			for b := a + 1; b < NumIntersections; b++ {
				pa, pb := g.Intersections[a].Pos, g.Intersections[b].Pos
				if pa.sub(pb).dot(pa.sub(pb)) > minD+eps {
					continue
				}
				if math.Abs(pa.dot(normals[c])) > 1e-6 || math.Abs(pb.dot(normals[c])) > 1e-6 {
					continue
				}
				g.Struts[k] = Strut{Color: c, A: int16(a), B: int16(b)}
				k++
			}
		}
	}
	if k != NumStruts {
		panic("pantropia: expected 60 struts")
	}
	var deg [NumIntersections]int
	for s, st := range g.Struts {
		for _, end := range [2][2]int16{{st.A, st.B}, {st.B, st.A}} {
			n := &g.Intersections[end[0]]
			if deg[end[0]] == strutsPerNode {
				panic("pantropia: an intersection with more than four struts")
			}
			n.Struts[deg[end[0]]] = int16(s)
			n.Neighbors[deg[end[0]]] = end[1]
			deg[end[0]]++
		}
	}
	// Joints: three per strut, adjacent in a line; end joints meet at their intersection.
	for s, st := range g.Struts {
		pa, pb := g.Intersections[st.A].Pos, g.Intersections[st.B].Pos
		for k := 0; k < 3; k++ {
			j := &g.Joints[3*s+k]
			j.Strut = int16(s)
			j.Pos = pa.lerp(pb, float64(k+1)/4)
			j.At = -1
			switch k {
			case 0:
				j.Along = []int16{int16(3*s + 1)}
				j.At = st.A
			case 1:
				j.Along = []int16{int16(3 * s), int16(3*s + 2)}
			case 2:
				j.Along = []int16{int16(3*s + 1)}
				j.At = st.B
			}
		}
	}
	for j := range g.Joints {
		at := g.Joints[j].At
		if at < 0 {
			continue
		}
		for _, s := range g.Intersections[at].Struts {
			e := g.EndJoint(s, at)
			if int(e) != j {
				g.Joints[j].Through = append(g.Joints[j].Through, e)
			}
		}
	}
	return g
}

// EndJoint is the joint of strut s that touches intersection at.
func (g *Sphere) EndJoint(s, at int16) int16 {
	if g.Struts[s].A == at {
		return 3 * s
	}
	return 3*s + 2
}

// Touches reports whether intersection i has color c.
func (g *Sphere) Touches(i int, c Color) bool {
	cs := g.Intersections[i].Colors
	return cs[0] == c || cs[1] == c
}

// pairIndex numbers the 15 unordered color pairs a<b.
func pairIndex(a, b Color) int {
	if a > b {
		a, b = b, a
	}
	idx := 0
	for x := Color(0); x < a; x++ {
		idx += NumColors - 1 - int(x)
	}
	return idx + int(b-a-1)
}

func canonical(v Vec) Vec {
	n := math.Sqrt(v.dot(v))
	v = v.scale(1 / n)
	for _, c := range []float64{v.X, v.Y, v.Z} {
		if math.Abs(c) > eps {
			if c < 0 {
				v = v.scale(-1)
			}
			break
		}
	}
	return v
}

// vecLess orders vectors by x, then y, then z, with a tolerance.
func vecLess(a, b Vec) bool {
	for _, d := range []float64{a.X - b.X, a.Y - b.Y, a.Z - b.Z} {
		if d < -1e-6 {
			return true
		}
		if d > 1e-6 {
			return false
		}
	}
	return false
}
