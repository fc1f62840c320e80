package marketing

import (
	"strings"

	"svc/internal/store"
)

// copyChannels are the channels the full deliverable adapts the copy to, in the order used
// after the requested one.
var copyChannels = []string{formatSocial, formatEmail, formatAd}

// full writes the full deliverable.
func (p *plan) full() *Full {
	lean := p.lean(p.format)
	return &Full{
		Positioning:        p.positioning(),
		Segment:            p.segment(),
		FunnelStage:        p.stage,
		Angles:             p.angles(lean),
		Objections:         p.objections(),
		ChannelAdaptations: p.channelAdaptations(),
		ProofPoints:        p.proofPoints(),
		Hashtags:           p.hashtags(),
		StrategyRationale:  p.rationale(),
		NextExperiment:     p.experiment(lean.Headline),
	}
}

// audienceOr is the request's audience, or the language's word for the customers.
func (p *plan) audienceOr() string {
	if p.audience != "" {
		return p.audience
	}
	return p.t.defaultAudience
}

// leadFacts are the facts the positioning rests on: the product's own first sentence, then
// the best passage facts, two at most.
func (p *plan) leadFacts() []fact {
	var out []fact
	if p.product != nil && len(p.product.feats) > 0 {
		out = append(out, p.product.feats[0])
	}
	for _, f := range pickFacts(p.facts, 2, nil) {
		if len(out) < 2 {
			out = append(out, f)
		}
	}
	return out
}

func (p *plan) positioning() string {
	tpl := p.t.positioning
	if p.audience == "" {
		tpl = p.t.positioningNoAud
	}
	parts := []string{p.f(tpl, "s", p.subject(), "a", p.audience)}
	facts := p.leadFacts()
	for _, f := range facts {
		parts = append(parts, f.text)
	}
	if len(facts) == 0 {
		parts = append(parts, p.t.positioningNoFacts)
	}
	return strings.Join(parts, " ")
}

func (p *plan) segment() string {
	c := lowerCategory(p.category, p.lang)
	switch {
	case p.audience != "" && c != "":
		return p.f(p.t.segmentAudCat, "a", p.audience, "c", c)
	case p.audience != "":
		return capFirst(p.audience, p.lang)
	case c != "":
		return p.f(p.t.segmentCat, "c", c)
	case p.business != "":
		return p.f(p.t.segmentBrand, "b", p.business)
	}
	return p.t.segmentNone
}

// angles: the product itself, then one angle per document among the best facts, then the
// brand and the reader's need when there are fewer than two.
func (p *plan) angles(lean *Lean) []Angle {
	hooks := append([]string{lean.Headline}, p.variantLines(lean.Headline, 5)...)
	hook := func(i int) string { return hooks[i%len(hooks)] }
	var out []Angle
	if p.product != nil && len(p.product.feats) > 0 {
		msg := p.product.feats[0].text
		if pl := p.priceLine(); pl != "" {
			msg += " " + pl
		}
		out = append(out, Angle{Name: p.t.angleProduct, Hook: hook(0), Message: msg})
	}
	for _, f := range pickFacts(p.facts, 3-len(out), nil) {
		out = append(out, Angle{Name: p.angleName(f), Hook: hook(len(out)), Message: f.text})
	}
	if len(out) < 2 && p.business != "" {
		out = append(out, Angle{Name: p.t.angleBrand, Hook: p.brandHeadline(), Message: p.f(pick(p.tt.desire, p.seed))})
	}
	if len(out) < 2 {
		msg := p.f(pick(p.tt.problemNoC, p.seed)) + " " + p.f(pick(p.tt.benefit, p.seed))
		if p.category != "" {
			msg = p.f(pick(p.tt.problem, p.seed), "c", lowerCategory(p.category, p.lang)) + " " + p.f(pick(p.tt.benefit, p.seed))
		}
		out = append(out, Angle{Name: p.t.angleNeed, Hook: p.f(pick(p.tt.headGeneric, p.seed+1)), Message: msg})
	}
	return out
}

// angleName names a fact's angle: by its topic, else by the title of its page, else as the
// brand's (a Q&A entry's title is a question).
func (p *plan) angleName(f fact) string {
	if n := p.t.topicNames[f.topic]; n != "" {
		return n
	}
	if f.title != "" && !strings.HasSuffix(f.title, "?") && !strings.Contains(f.title, "://") {
		return f.title
	}
	return p.t.angleBrand
}

// brandHeadline is a headline naming the business, or naming nothing without one.
func (p *plan) brandHeadline() string {
	if p.business != "" && len(p.tt.headBrand) > 0 {
		return p.f(pick(p.tt.headBrand, p.seed), "b", p.business)
	}
	return p.f(pick(p.tt.headGeneric, p.seed))
}

// objectionTopics are the objections answered by a fact of a topic; "value" is answered by
// the price and a warranty fact.
var objectionTopics = []struct{ key, topic string }{
	{"value", "warranty"},
	{"risk", "returns"},
	{"delivery", "delivery"},
	{"payment", "payment"},
}

// objections answers the likely objections that a fact of the sources answers, three at
// most; with none answered, the "why you" objection gets an answer that promises nothing.
func (p *plan) objections() []Objection {
	var out []Objection
	used := make(map[string]bool)
	for _, ot := range objectionTopics {
		var answer []string
		if f, ok := topicFact(p.facts, ot.topic, used); ok {
			used[f.text] = true
			answer = append(answer, f.text)
		}
		if ot.key == "value" && p.product != nil {
			// The price, and why it is worth it: the warranty, else the product's own facts.
			if len(answer) == 0 && len(p.product.feats) > 0 {
				answer = append(answer, p.product.feats[0].text)
			}
			if pl := p.priceLine(); pl != "" && len(answer) > 0 {
				answer = append([]string{pl}, answer...)
			}
		}
		if len(answer) == 0 {
			continue
		}
		out = append(out, Objection{Objection: p.t.objections[ot.key], Response: strings.Join(answer, " ")})
		if len(out) == 3 {
			break
		}
	}
	if len(out) == 0 {
		out = append(out, p.trustObjection())
	}
	return out
}

func (p *plan) trustObjection() Objection {
	q := p.t.trustNoName
	if p.business != "" {
		q = p.f(p.t.objections["trust"], "b", p.business)
	}
	return Objection{Objection: q, Response: p.t.fallbackResponse}
}

// channelAdaptations adapts the copy to the requested channel and two others.
func (p *plan) channelAdaptations() []ChannelAdaptation {
	chans := []string{}
	if p.format != "" {
		chans = append(chans, p.format)
	}
	for _, c := range copyChannels {
		if len(chans) < 3 && !containsString(chans, c) {
			chans = append(chans, c)
		}
	}
	out := make([]ChannelAdaptation, 0, len(chans))
	for _, c := range chans {
		out = append(out, ChannelAdaptation{Channel: p.t.channels[c], Copy: channelCopy(p.lean(c), c), Notes: p.t.chanNotes[c]})
	}
	return out
}

// channelCopy lays lean copy out for a channel.
func channelCopy(l *Lean, channel string) string {
	switch channel {
	case formatEmail, formatLanding:
		return l.Headline + "\n\n" + l.Body + "\n\n" + l.CTA
	case formatAd:
		return l.Headline + "\n" + l.Body + "\n" + l.CTA
	}
	return l.Body + "\n" + l.CTA
}

// proofPoints are the product's price and first sentence, then the best facts about the
// featured product or the brief's subject, five at most: a sentence about boot care is no
// proof point for a backpack, however well it reads.
func (p *plan) proofPoints() []ProofPoint {
	out := []ProofPoint{}
	if p.product != nil {
		src := p.product.Name
		if price := strings.TrimSpace(p.product.Price); price != "" {
			out = append(out, ProofPoint{Claim: oneLine(p.product.Name) + ": " + price, Source: src, URL: p.product.URL})
		}
		if len(p.product.feats) > 0 {
			f := p.product.feats[0]
			out = append(out, ProofPoint{Claim: f.text, Source: f.title, URL: f.url})
		}
	}
	// When no sentence of the sources is about the subject (a Black Friday brief over a KB
	// that names no sale), the shop's own policies still back the copy: returns, warranty,
	// delivery and payment facts, which concern whatever is sold.
	about := factsWhere(p.facts, func(f fact) bool { return f.onSubject })
	if len(about) == 0 {
		about = factsWhere(p.facts, func(f fact) bool { return f.topic != "" })
	}
	for _, f := range pickFacts(about, 5-len(out), nil) {
		out = append(out, ProofPoint{Claim: f.text, Source: f.title, URL: f.url})
	}
	return out
}

func (p *plan) rationale() string {
	parts := []string{p.f(p.t.rationale[p.framework], "stage", p.t.stageNames[p.stage])}
	if len(p.leadFacts()) > 0 {
		parts = append(parts, p.t.rationaleFacts)
	} else {
		parts = append(parts, p.t.rationaleNoFacts)
	}
	if p.claims {
		parts = append(parts, p.t.rationaleClaims)
	}
	return strings.Join(parts, " ")
}

// metric is what decides the plan's tests.
func (p *plan) metric() string {
	if p.format == formatEmail {
		return p.t.metrics["email"]
	}
	return p.t.metrics[p.stage]
}

// experiment is the headline test: the product against the brand, or the brand against a
// headline naming nothing, or without a name a direct call to action against a softer one.
func (p *plan) experiment(headline string) Experiment {
	m := p.metric()
	switch {
	case p.product != nil:
		return Experiment{Hypothesis: p.f(p.t.hypothesisProduct, "metric", m), VariantA: headline, VariantB: p.brandHeadline(), Metric: m}
	case p.business != "":
		return Experiment{Hypothesis: p.f(p.t.hypothesisBrand, "metric", m), VariantA: p.brandHeadline(), VariantB: p.f(pick(p.tt.headGeneric, p.seed)), Metric: m}
	}
	return p.ctaExperiment()
}

// ctaExperiment tests a direct call to action against the warm one.
func (p *plan) ctaExperiment() Experiment {
	m := p.metric()
	a := p.cta(store.ToneProfessional)
	if p.tone == store.ToneEnergetic {
		a = p.cta(store.ToneEnergetic)
	}
	return Experiment{Hypothesis: p.f(p.t.hypothesisCTA, "metric", m), VariantA: a, VariantB: p.cta(store.ToneWarm), Metric: m}
}

// factsWhere keeps the facts that keep holds, in their order.
func factsWhere(facts []fact, keep func(fact) bool) []fact {
	var out []fact
	for _, f := range facts {
		if keep(f) {
			out = append(out, f)
		}
	}
	return out
}
