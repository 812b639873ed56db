package planet

import (
	"math"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
)

// TestGeometry_DodecahedronFaceGraph: 12 faces, each with 5 distinct neighbours, symmetric,
// 30 edges, and every pair of neighbouring faces shares exactly one edge (two vertices).
func TestGeometry_DodecahedronFaceGraph(t *testing.T) {
	g := Geo
	edges := 0
	for f := 0; f < Faces; f++ {
		seen := map[int]bool{}
		for k, n := range g.FaceNeighbour[f] {
			if n == f || n < 0 || n >= Faces || seen[n] {
				t.Errorf("face %d edge %d: bad neighbour %d", f, k, n)
			}
			seen[n] = true
			back := false
			for _, m := range g.FaceNeighbour[n] {
				back = back || m == f
			}
			if !back {
				t.Errorf("face %d neighbours %d but not the other way", f, n)
			}
			shared := 0
			for _, u := range g.FaceVertex[f] {
				for _, v := range g.FaceVertex[n] {
					if u == v {
						shared++
					}
				}
			}
			if shared != 2 {
				t.Errorf("faces %d and %d share %d vertices, want 2", f, n, shared)
			}
			edges++
		}
		if len(seen) != 5 {
			t.Errorf("face %d has %d neighbours, want 5", f, len(seen))
		}
	}
	if edges/2 != 30 {
		t.Errorf("%d edges, want 30", edges/2)
	}
	// Each vertex lies on exactly 3 faces.
	var on [Vertices]int
	for f := range g.FaceVertex {
		for _, v := range g.FaceVertex[f] {
			on[v]++
		}
	}
	for v, n := range on {
		if n != 3 {
			t.Errorf("vertex %d on %d faces, want 3", v, n)
		}
	}
}

// TestGeometry_AreasHaveThreeNeighbours: 60 areas, each adjacent to exactly 3 others (two on
// its tile, one across the edge), symmetrically; corner-only contacts are not adjacent.
func TestGeometry_AreasHaveThreeNeighbours(t *testing.T) {
	g := Geo
	for a := 0; a < Areas; a++ {
		seen := map[int]bool{}
		sameFace := 0
		for _, n := range g.AreaNeighbour[a] {
			if n == a || seen[n] {
				t.Errorf("area %d: bad or repeated neighbour %d", a, n)
			}
			seen[n] = true
			if n/5 == a/5 {
				sameFace++
			}
			back := false
			for _, m := range g.AreaNeighbour[n] {
				back = back || m == a
			}
			if !back {
				t.Errorf("area %d neighbours %d but not the other way", a, n)
			}
		}
		if len(seen) != 3 || sameFace != 2 {
			t.Errorf("area %d: %d neighbours, %d on its face; want 3 and 2", a, len(seen), sameFace)
		}
		// The area across shares the edge: both its end points.
		c := g.AreaCorners(a)
		o := g.AreaCorners(g.AreaNeighbour[a][0])
		if !(near(c[1], o[2]) && near(c[2], o[1])) {
			t.Errorf("area %d and the area across do not share their edge (reversed, as both run clockwise)", a)
		}
	}
}

// TestGeometry_ClockwiseFromOutside: every face's vertices run clockwise seen from outside,
// so a tile's clockwise areas land clockwise whatever the face.
func TestGeometry_ClockwiseFromOutside(t *testing.T) {
	g := Geo
	for f := 0; f < Faces; f++ {
		v := g.FaceVertex[f]
		for k := 0; k < 5; k++ {
			a, b, c := g.Vertex[v[k]], g.Vertex[v[(k+1)%5]], g.Vertex[v[(k+2)%5]]
			if b.sub(a).cross(c.sub(b)).dot(g.Center[f]) >= 0 {
				t.Errorf("face %d turns counter-clockwise at vertex %d", f, k)
			}
		}
		// The face is flat and regular: every vertex at one distance from the centre.
		r := math.Sqrt(g.Vertex[v[0]].sub(g.Center[f]).dot(g.Vertex[v[0]].sub(g.Center[f])))
		for _, x := range v {
			d := g.Vertex[x].sub(g.Center[f])
			if math.Abs(math.Sqrt(d.dot(d))-r) > 1e-9 {
				t.Errorf("face %d is not regular", f)
			}
		}
	}
}

func near(a, b Vec) bool { d := a.sub(b); return d.dot(d) < 1e-12 }

// TestCatalog_GeometryForClients: the catalog carries the dodecahedron, its areas with corners
// and neighbours, and the built-in data set, so a client can draw the planets.
func TestCatalog_GeometryForClients(t *testing.T) {
	g, err := engine.Lookup("planet")
	if err != nil {
		t.Fatal(err)
	}
	c := g.Catalog().(*planetv1.Catalog)
	if len(c.Vertices) != Vertices || len(c.Faces) != Faces || len(c.Areas) != Areas {
		t.Errorf("catalog has %d vertices, %d faces, %d areas", len(c.Vertices), len(c.Faces), len(c.Areas))
	}
	for _, a := range c.Areas {
		if len(a.Corners) != 3 || len(a.Neighbours) != 3 || a.Id != a.Face*5+a.Edge {
			t.Errorf("area %d: %d corners, %d neighbours, face %d edge %d", a.Id, len(a.Corners), len(a.Neighbours), a.Face, a.Edge)
		}
	}
	if len(c.Tiles) != 50 || len(c.Animals) != 45 || len(c.Objectives) != 5 || len(c.Layout) != 10 {
		t.Errorf("catalog data: %d tiles, %d animals, %d objectives, %d layout columns", len(c.Tiles), len(c.Animals), len(c.Objectives), len(c.Layout))
	}
	if _, err := proto.Marshal(c); err != nil {
		t.Error(err)
	}
}

// TestGeometry_NoThreeAreasAllNeighbours: no area's two neighbours are next to each other, so
// that the areas next to two neighbouring areas are 4 others (maxRegions rests on it).
func TestGeometry_NoThreeAreasAllNeighbours(t *testing.T) {
	for a, ns := range Geo.AreaNeighbour {
		for i, b := range ns {
			for _, c := range ns[i+1:] {
				if neighbourSet[b]&(1<<c) != 0 {
					t.Fatalf("areas %d, %d and %d are each next to the other two", a, b, c)
				}
			}
		}
	}
}
