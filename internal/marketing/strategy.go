package marketing

import (
	"strings"

	"svc/internal/store"
)

// strategy writes the twelve sections.
func (p *plan) strategy() *Strategy {
	lean := p.lean(p.format)
	full := p.full()
	sections := make([]Section, 0, len(sectionKeys))
	for _, key := range sectionKeys {
		s := p.section(key, lean, full)
		s.Key, s.Title = key, p.t.sectionTitles[key]
		if s.Points == nil {
			s.Points = []string{}
		}
		sections = append(sections, s)
	}
	return &Strategy{Sections: sections}
}

// section writes one section of the strategy from the lean copy and the full deliverable it
// builds on.
func (p *plan) section(key string, lean *Lean, full *Full) Section {
	t := p.t
	b := p.brandName()
	switch key {
	case SectionMarketAnalysis:
		var s Section
		switch {
		case len(p.products) > 0 && len(p.cats) > 0:
			s.Summary = p.f(t.marketCats, "b", b, "cats", strings.Join(p.cats, ", "))
		case len(p.facts) > 0 || len(p.products) > 0:
			s.Summary = p.f(t.marketNoProducts, "b", b)
		default:
			s.Summary = t.marketEmpty
		}
		for i, pr := range p.products {
			if i == 6 {
				break
			}
			s.Points = append(s.Points, productLine(pr))
		}
		for _, f := range pickFacts(p.facts, 3, nil) {
			s.Points = append(s.Points, f.text)
		}
		s.Points = append(s.Points, t.marketResearch)
		return s

	case SectionPersonas:
		return Section{Summary: t.personasSummary, Personas: p.personas()}

	case SectionPositioning:
		s := Section{Summary: full.Positioning}
		for _, pp := range full.ProofPoints {
			if len(s.Points) == 3 {
				break
			}
			s.Points = append(s.Points, pp.Claim)
		}
		s.Points = append(s.Points, t.positioningGuard)
		return s

	case SectionMessaging:
		s := Section{Summary: p.f(t.messagingCore, "h", lean.Headline)}
		for _, a := range full.Angles {
			s.Points = append(s.Points, a.Name+": "+a.Message)
		}
		s.Points = append(s.Points,
			p.f(t.messagingCTA, "h", lean.CTA),
			p.f(t.messagingTone, "tone", t.toneNames[p.tone]))
		return s

	case SectionFunnel:
		return Section{Summary: p.f(t.funnelSummary, "stage", t.stageNames[p.stage]), Stages: p.stages(lean)}

	case SectionChannelMix:
		s := Section{Summary: t.channelMixDefault}
		if p.format != "" {
			s.Summary = p.f(t.channelMixLead, "fmt", t.channels[p.format])
		}
		ad := t.channelRoleAdNoC
		if p.category != "" {
			ad = p.f(t.channelRoles["ad"], "c", lowerCategory(p.category, p.lang))
		}
		s.Points = []string{t.channelRoles["social"], t.channelRoles["email"], ad, t.channelRoles["website"]}
		return s

	case SectionContentPlan:
		s := Section{Summary: t.contentSummary}
		s.Points = append(s.Points, p.f(t.contentLaunch, "fmt", p.formatName(), "h", lean.Headline))
		if len(full.Objections) > 0 {
			s.Points = append(s.Points, p.f(t.contentFollow, "q", full.Objections[0].Objection))
		}
		if pp := pickFacts(p.facts, 1, nil); len(pp) > 0 {
			s.Points = append(s.Points, p.f(t.contentProof, "f", pp[0].text))
		} else if p.product != nil && len(p.product.feats) > 0 {
			s.Points = append(s.Points, p.f(t.contentProof, "f", p.product.feats[0].text))
		}
		s.Points = append(s.Points, t.contentOngoing)
		return s

	case SectionMeasurement:
		s := Section{Summary: t.measurementSummary}
		for _, st := range stages {
			s.KPIs = append(s.KPIs, KPI{Name: t.kpiNames[st], Stage: st, Definition: t.kpiDefinitions[st], Target: t.kpiTarget})
		}
		return s

	case SectionRoadmap:
		s := Section{Summary: t.roadmapSummary}
		for _, r := range t.roadmap {
			s.Points = append(s.Points, p.f(r, "fmt", p.formatName()))
		}
		return s

	case SectionExperiments:
		exps := []Experiment{full.NextExperiment}
		if cta := p.ctaExperiment(); cta.VariantA != full.NextExperiment.VariantA {
			exps = append(exps, cta)
		}
		return Section{Summary: t.experimentsSummary, Experiments: exps}

	case SectionBudget:
		return Section{Summary: t.budgetSummary, Points: append([]string(nil), t.budget...)}

	case SectionRisks:
		s := Section{Summary: t.risksSummary}
		if p.claims {
			s.Points = append(s.Points, t.riskClaims)
		}
		s.Points = append(s.Points, t.riskExact)
		used := make(map[string]bool)
		if f, ok := topicFact(p.facts, "delivery", used); ok {
			used[f.text] = true
			s.Points = append(s.Points, p.f(t.riskDelivery, "f", f.text))
		}
		if f, ok := topicFact(p.facts, "returns", used); ok {
			s.Points = append(s.Points, p.f(t.riskReturns, "f", f.text))
		} else if f, ok := topicFact(p.facts, "warranty", used); ok {
			s.Points = append(s.Points, p.f(t.riskReturns, "f", f.text))
		}
		s.Points = append(s.Points, t.riskFatigue, p.f(t.riskTone, "tone", t.toneNames[p.tone]))
		return s
	}
	return Section{}
}

// productLine lists a product for the market analysis: name, price and category as the
// sources give them.
func productLine(pr store.Product) string {
	line := oneLine(pr.Name)
	if price := strings.TrimSpace(pr.Price); price != "" {
		line += ": " + price
	}
	if c := oneLine(pr.Category); c != "" {
		line += " (" + c + ")"
	}
	return line
}

// formatName names the requested format, or social media when none was asked for.
func (p *plan) formatName() string {
	if p.format != "" {
		return p.t.channels[p.format]
	}
	return p.t.channels[formatSocial]
}

// personas: the brief's audience (or the core buyer), the returning customer and the
// first-time visitor, each pulled by a fact of the sources when one fits.
func (p *plan) personas() []Persona {
	t := p.t
	b := p.brandName()
	c := lowerCategory(p.category, p.lang)
	used := make(map[string]bool)
	pull := func(i int, topics ...string) string {
		if i == 0 && p.product != nil && len(p.product.feats) > 0 {
			return p.product.feats[0].text
		}
		for _, topic := range topics {
			if f, ok := topicFact(p.facts, topic, used); ok {
				used[f.text] = true
				return f.text
			}
		}
		if i == 0 {
			if fs := pickFacts(p.facts, 1, used); len(fs) > 0 {
				used[fs[0].text] = true
				return fs[0].text
			}
		}
		return p.f(t.personas[i].pull, "b", b)
	}
	out := make([]Persona, 0, 3)
	for i, pt := range t.personas {
		name := pt.name
		if i == 0 {
			name = t.personaCoreName
			if p.audience != "" {
				name = capFirst(p.audience, p.lang)
			}
		}
		profile, job := pt.profileNoC, pt.jobNoC
		if c != "" {
			profile, job = pt.profile, pt.job
		}
		var topics []string
		switch i {
		case 1:
			topics = []string{"returns", "warranty"}
		case 2:
			topics = []string{"payment", "warranty", "delivery"}
		}
		out = append(out, Persona{
			Name:    name,
			Profile: p.f(profile, "c", c, "b", b),
			Job:     p.f(job, "c", c, "b", b),
			Forces: Forces{
				Push:    pt.push,
				Pull:    pull(i, topics...),
				Anxiety: pt.anxiety,
				Habit:   pt.habit,
			},
		})
	}
	return out
}

// stageChannels are the channels of each funnel stage, by key of texts.channels.
var stageChannels = map[string][]string{
	StageAwareness:     {"social_media", "ads"},
	StageConsideration: {"website", "email"},
	StageConversion:    {"product_page", "email", "retargeting"},
	StageRetention:     {"email", "sms"},
	StageAdvocacy:      {"social_media", "reviews"},
}

// stages lays out the five funnel stages, each with the copy or fact it leads with.
func (p *plan) stages(lean *Lean) []Stage {
	t := p.t
	used := make(map[string]bool)
	out := make([]Stage, 0, len(stages))
	for _, st := range stages {
		var msg string
		switch st {
		case StageAwareness:
			msg = p.brandHeadline()
		case StageConsideration:
			if p.product != nil && len(p.product.feats) > 0 {
				msg = p.product.feats[0].text
			} else if fs := pickFacts(p.facts, 1, used); len(fs) > 0 {
				msg = fs[0].text
				used[msg] = true
			} else {
				msg = p.f(pick(p.tt.desire, p.seed))
			}
		case StageConversion:
			msg = p.priceLine()
			if msg == "" {
				msg = p.f(p.tt.cta[StageConversion])
			}
		case StageRetention:
			if f, ok := topicFact(p.facts, "warranty", used); ok {
				msg = f.text
			} else if f, ok := topicFact(p.facts, "returns", used); ok {
				msg = f.text
			} else {
				msg = p.f(p.tt.cta[StageRetention])
			}
		case StageAdvocacy:
			msg = p.f(p.tt.cta[StageAdvocacy])
		}
		if st == p.stage && st != StageConversion {
			msg = lean.Headline // the campaign's own stage leads with the campaign's headline
		}
		chans := make([]string, 0, 3)
		for _, c := range stageChannels[st] {
			chans = append(chans, t.channels[c])
		}
		out = append(out, Stage{Stage: st, Objective: p.f(t.objectives[st], "a", p.audienceOr()), Message: msg, Channels: chans})
	}
	return out
}

// tonePresets lists the presets, for repairs that try every tone.
var tonePresets = []string{store.ToneProfessional, store.ToneWarm, store.ToneEnergetic}
