package pantropia

// jointSet is a set of joints, one bit each. Ring targets are computed on these, a few words
// at a time, because listing them is the hottest path of a playout.
type jointSet [(NumJoints + 63) / 64]uint64

func (b *jointSet) add(j int16)      { b[j>>6] |= 1 << (uint(j) & 63) }
func (b *jointSet) has(j int16) bool { return b[j>>6]&(1<<(uint(j)&63)) != 0 }

func (b *jointSet) or(c *jointSet) {
	for i := range b {
		b[i] |= c[i]
	}
}

func (b *jointSet) isEmpty() bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}

// The joint neighbourhoods as sets, derived from Geo: the joints along the same strut, those
// and the other end joints at the same intersection together, and the four end joints at
// each intersection; jointAt is Geo's Joint.At in a compact table.
var (
	alongSet  [NumJoints]jointSet
	aroundSet [NumJoints]jointSet
	endsAt    [NumIntersections]jointSet
	jointAt   [NumJoints]int8
	allJoints jointSet
)

func init() {
	for j := range Geo.Joints {
		allJoints.add(int16(j))
		g := &Geo.Joints[j]
		for _, n := range g.Along {
			alongSet[j].add(n)
			aroundSet[j].add(n)
		}
		for _, n := range g.Through {
			aroundSet[j].add(n)
		}
		jointAt[j] = int8(g.At)
		if g.At >= 0 {
			endsAt[g.At].add(int16(j))
		}
	}
}
