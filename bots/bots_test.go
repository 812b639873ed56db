package bots_test

import (
	"testing"

	"github.com/orrery/orrery/bots"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

func TestNoted_AttachesANoteToTheAnswer(t *testing.T) {
	d := &orreryv1.Decision{DecisionId: "d4", LegalCount: 3}
	a := bots.Noted(bots.Index(d, 2), "north site: +%d production", 3)
	if a.GetNote() != "north site: +3 production" || a.GetLegalIndex() != 2 || a.GetDecisionId() != "d4" {
		t.Errorf("Noted: %v", a)
	}
}
