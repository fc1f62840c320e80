package marketing

import (
	"strings"
	"testing"
)

// Proof points concern the featured product or the brief's subject: a Turkish brief about
// backpacks cited boot care and shoe returns (issue 24). Every point names the backpack or
// comes from its own page, with the brief about the product or only about backpacks, and
// with an audience ("yürüyüşçülere", to hikers) that boot care also mentions.
func TestProofPointsConcernTheSubject(t *testing.T) {
	t.Parallel()
	src := demoSources(t, "tr")
	for _, req := range []Request{
		{Brief: "Sırt çantalarımızı tanıtın"},
		{Brief: "Aladağ sırt çantamızı yürüyüşçülere tanıtın", Product: "Aladağ 35 Sırt Çantası"},
	} {
		req.Lang, req.Depth, req.Business = "tr", DepthFull, "Yolcu Outdoor"
		f := Compose(req, src).(*Full)
		if len(f.ProofPoints) == 0 {
			t.Errorf("%q: no proof points", req.Brief)
		}
		for _, pp := range f.ProofPoints {
			claim := strings.ToLower(pp.Claim)
			if !strings.Contains(claim, "çanta") && !strings.Contains(pp.URL, "aladag-35-sirt-cantasi") {
				t.Errorf("%q: proof point %q (%s) is not about backpacks", req.Brief, pp.Claim, pp.Source)
			}
		}
	}
}
