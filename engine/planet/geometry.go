package planet

import (
	"math"
	"sort"
)

// The core is a dodecahedron: 12 pentagonal faces, each split into 5 triangular areas running
// from the face's centre to one of its edges, 60 areas in all (a pentakis dodecahedron). Nothing
// here is typed in by hand: the vertices come from the dodecahedron's coordinates, and the faces,
// edges and adjacencies are derived from them once, at package start.
const (
	Faces        = 12
	Areas        = Faces * 5
	Vertices     = 20
	TurnsPerGame = Faces // one tile per face, one face per turn
)

// Vec is a point in space.
type Vec struct{ X, Y, Z float64 }

func (a Vec) sub(b Vec) Vec       { return Vec{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }
func (a Vec) add(b Vec) Vec       { return Vec{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }
func (a Vec) scale(k float64) Vec { return Vec{a.X * k, a.Y * k, a.Z * k} }
func (a Vec) dot(b Vec) float64   { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }
func (a Vec) cross(b Vec) Vec {
	return Vec{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}

// Geometry is the derived dodecahedron.
type Geometry struct {
	Vertex [Vertices]Vec
	// FaceVertex lists each face's vertices clockwise seen from outside; edge k of a face
	// joins its vertex k and vertex k+1.
	FaceVertex [Faces][5]int
	Center     [Faces]Vec
	// FaceNeighbour is the face across edge k.
	FaceNeighbour [Faces][5]int
	// AreaNeighbour lists each area's 3 neighbours: the area across its edge, then the next
	// and the previous area (clockwise) on the same face.
	AreaNeighbour [Areas][3]int
}

// Geo is the one dodecahedron every planet shares.
var Geo = buildGeometry()

// AreaOf is the area of face f at its edge k.
func AreaOf(face, edge int) int { return face*5 + edge }

// buildGeometry derives faces and adjacency from the 20 vertices of the regular dodecahedron:
// (±1, ±1, ±1), (0, ±1/φ, ±φ), (±1/φ, ±φ, 0), (±φ, 0, ±1/φ).
func buildGeometry() *Geometry {
	phi := (1 + math.Sqrt(5)) / 2
	var vs []Vec
	for _, x := range []float64{-1, 1} {
		for _, y := range []float64{-1, 1} {
			for _, z := range []float64{-1, 1} {
				vs = append(vs, Vec{x, y, z})
			}
		}
	}
	for _, a := range []float64{-1, 1} {
		for _, b := range []float64{-1, 1} {
			vs = append(vs, Vec{0, a / phi, b * phi}, Vec{a / phi, b * phi, 0}, Vec{a * phi, 0, b / phi})
		}
	}
	// A fixed reading order: top to bottom, then by angle around the axis.
	sort.Slice(vs, func(i, j int) bool { return lessByPosition(vs[i], vs[j]) })
	g := &Geometry{}
	copy(g.Vertex[:], vs)

	// Edges join the vertices at the smallest distance (2/φ); each vertex has 3.
	var adj [Vertices][]int
	edge := 2 / phi
	for i := range g.Vertex {
		for j := range g.Vertex {
			if i != j && math.Abs(g.Vertex[i].sub(g.Vertex[j]).dot(g.Vertex[i].sub(g.Vertex[j]))-edge*edge) < 1e-9 {
				adj[i] = append(adj[i], j)
			}
		}
	}

	// Walk each directed edge u→v around the face on its left (counter-clockwise seen from
	// outside): the next vertex w is the neighbour of v that keeps turning left.
	type face struct{ vs [5]int }
	var faces []face
	seen := map[[2]int]bool{}
	for u := range g.Vertex {
		for _, v := range adj[u] {
			if seen[[2]int{u, v}] {
				continue
			}
			var f face
			a, b := u, v
			for k := 0; k < 5; k++ {
				f.vs[k] = a
				seen[[2]int{a, b}] = true
				next := -1
				for _, w := range adj[b] {
					if w != a && g.Vertex[b].sub(g.Vertex[a]).cross(g.Vertex[w].sub(g.Vertex[b])).dot(g.Vertex[b]) > 0 {
						next = w
					}
				}
				a, b = b, next
			}
			if a != u || b != v {
				panic("planet: dodecahedron face walk did not close")
			}
			// Reverse into clockwise order, starting at the face's lowest vertex id.
			var cw [5]int
			for k := 0; k < 5; k++ {
				cw[k] = f.vs[(5-k)%5]
			}
			start := 0
			for k := 1; k < 5; k++ {
				if cw[k] < cw[start] {
					start = k
				}
			}
			for k := 0; k < 5; k++ {
				f.vs[k] = cw[(start+k)%5]
			}
			faces = append(faces, f)
		}
	}
	if len(faces) != Faces {
		panic("planet: dodecahedron has the wrong number of faces")
	}
	center := func(f face) Vec {
		var c Vec
		for _, v := range f.vs {
			c = c.add(g.Vertex[v])
		}
		return c.scale(0.2)
	}
	sort.Slice(faces, func(i, j int) bool { return lessByPosition(center(faces[i]), center(faces[j])) })
	for i, f := range faces {
		g.FaceVertex[i] = f.vs
		g.Center[i] = center(f)
	}

	// Each edge belongs to two faces; each area's outer neighbour is the area on the other face.
	type half struct{ face, edge int }
	byEdge := map[[2]int][]half{}
	for f := range g.FaceVertex {
		for k := 0; k < 5; k++ {
			a, b := g.FaceVertex[f][k], g.FaceVertex[f][(k+1)%5]
			key := [2]int{min(a, b), max(a, b)}
			byEdge[key] = append(byEdge[key], half{f, k})
		}
	}
	for f := range g.FaceVertex {
		for k := 0; k < 5; k++ {
			a, b := g.FaceVertex[f][k], g.FaceVertex[f][(k+1)%5]
			var other half
			for _, h := range byEdge[[2]int{min(a, b), max(a, b)}] {
				if h.face != f {
					other = h
				}
			}
			g.FaceNeighbour[f][k] = other.face
			g.AreaNeighbour[AreaOf(f, k)] = [3]int{AreaOf(other.face, other.edge), AreaOf(f, (k+1)%5), AreaOf(f, (k+4)%5)}
		}
	}
	return g
}

// lessByPosition orders points from the top (largest z) down, then by angle around the z axis.
func lessByPosition(a, b Vec) bool {
	if math.Abs(a.Z-b.Z) > 1e-9 {
		return a.Z > b.Z
	}
	return math.Atan2(a.Y, a.X) < math.Atan2(b.Y, b.X)-1e-9
}

// AreaCorners are an area's triangle: its face's centre, then the two ends of its edge.
func (g *Geometry) AreaCorners(area int) [3]Vec {
	f, k := area/5, area%5
	return [3]Vec{g.Center[f], g.Vertex[g.FaceVertex[f][k]], g.Vertex[g.FaceVertex[f][(k+1)%5]]}
}
