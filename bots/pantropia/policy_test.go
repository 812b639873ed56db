package pantropia

import (
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/engine"
	pt "github.com/orrery/orrery/engine/pantropia"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// policyCheck plays as greedy and, at each decision, asks the search's greedy policy
// (pt.Greedy) the same question on a state drawn from the decision's observation.
type policyCheck struct {
	t             *testing.T
	g             bots.Bot
	policy        *pt.Greedy
	agreed, asked int
	kinds         map[uint16]int // the kinds of the choices compared
}

func (c *policyCheck) Act(d *orreryv1.Decision) *orreryv1.Answer {
	ans := c.g.Act(d)
	i, listed := ans.GetChoice().(*orreryv1.Answer_LegalIndex)
	if !listed {
		return ans // a custom offer: the policy makes none
	}
	o := wire.GameObservation(d.GetObservation()).(*pb.Observation)
	det, err := pt.NewDeterminizer(o, int(d.GetSeat()))
	if err != nil {
		c.t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	st := det.Sample(nil, r)
	want, err := st.ActionFromProto(wire.GameAction(d.GetLegal()[i.LegalIndex]))
	if err != nil {
		c.t.Fatal(err)
	}
	if want.Kind == pt.KindOffer {
		return ans // a listed offer: the policy makes none
	}
	legal := st.Legal(engine.Seat(d.GetSeat()), nil)
	if len(legal) != len(d.GetLegal()) {
		c.t.Fatalf("the sample lists %d actions, the decision %d", len(legal), len(d.GetLegal()))
	}
	c.asked++
	c.kinds[want.Kind]++
	// Both break ties at random (many rings score alike): the policy agrees when one of its
	// draws is greedy's choice.
	for k := range uint64(256) {
		if c.policy.Act(st, engine.Seat(d.GetSeat()), legal, rand.New(rand.NewPCG(k, 3))) == want {
			c.agreed++
			return ans
		}
	}
	c.t.Logf("turn %d, seat %d, phase %v: greedy chose %s, the policy %s", o.GetTurn(), d.GetSeat(), o.GetPhase(),
		st.FormatAction(want), st.FormatAction(c.policy.Act(st, engine.Seat(d.GetSeat()), legal, r)))
	return ans
}

// TestGreedyPolicy_ChoosesAsTheGreedyBot: the search's model of a greedy player, read from a
// state, chooses what the greedy bot chooses from the decision, wherever greedy does not
// trade: setup, production choices on black, building, cards, reactions, replies to offers.
func TestGreedyPolicy_ChoosesAsTheGreedyBot(t *testing.T) {
	for _, seed := range []uint64{3, 4} {
		players := make([]bots.Bot, 4)
		checks := make([]*policyCheck, 4)
		for s := range players {
			checks[s] = &policyCheck{t: t, g: NewGreedy(seed*10 + uint64(s)), policy: pt.NewGreedy(), kinds: map[uint16]int{}}
			players[s] = checks[s]
		}
		if _, _, err := local.Play("pantropia", engine.Config{Seats: 4, Seed: seed}, players); err != nil {
			t.Fatal(err)
		}
		agreed, asked := 0, 0
		kinds := map[uint16]int{}
		for _, c := range checks {
			agreed, asked = agreed+c.agreed, asked+c.asked
			for k, n := range c.kinds {
				kinds[k] += n
			}
		}
		t.Logf("seed %d: the policy chose as greedy in %d of %d decisions; by kind %v", seed, agreed, asked, kinds)
		if asked < 200 || agreed < asked {
			t.Errorf("seed %d: the policy chose as greedy in %d of %d decisions, want all of at least 200", seed, agreed, asked)
		}
		for _, k := range []uint16{pt.KindSettle, pt.KindTerraform, pt.KindRing, pt.KindReply, pt.KindEnd} {
			if kinds[k] == 0 {
				t.Errorf("seed %d: no choice of kind %d compared", seed, k)
			}
		}
	}
}
