package marketing

import (
	"slices"
	"strings"
	"unicode"

	"svc/internal/grounding"
)

// Guard runs the grounding guard over every text field of c (headline, body, cta, each
// variant and hashtag, every string in full and strategy) and removes or replaces what
// sources do not support; it returns the claims removed. Compose calls it; the caller calls
// it after Parse. c must be a *Lean, *Full or *Strategy; anything else is left alone.
//
// Long fields go through Guard.Clean, which drops unsupported sentences; short ones (headline,
// call to action, variant, hashtag, name, channel, metric) through Guard.Supported. What a
// field loses is replaced, so the content keeps its shape: an unsupported headline or call to
// action by a safe built-in line (never an empty one), an unsupported variant by a safe
// built-in variant (the count stays exact), an emptied long field by the built-in composer's
// text for it and, when even that does not pass, by a fixed line that states no fact;
// unsupported hashtags and list items that lose their substance are dropped, and a list that
// would be left empty is refilled from the built-in composer.
func Guard(c Content, req Request, src grounding.Sources) []grounding.Claim {
	return guardWith(newPlan(req, src), c)
}

func guardWith(p *plan, c Content) []grounding.Claim {
	gd := &guard{p: p, g: grounding.New(p.src, p.lang)}
	switch v := c.(type) {
	case *Lean:
		if v != nil {
			gd.lean(v)
		}
	case *Full:
		if v != nil {
			gd.full(v)
		}
	case *Strategy:
		if v != nil {
			gd.strategy(v)
		}
	}
	return gd.claims
}

// guard is one Guard run.
type guard struct {
	p      *plan
	g      *grounding.Guard
	claims []grounding.Claim

	baseLean     *Lean
	baseFull     *Full
	baseStrategy *Strategy
}

// short checks a short field of the content, recording what is unsupported in it.
func (gd *guard) short(text string) bool {
	if strings.TrimSpace(text) == "" {
		return false
	}
	ok, claims := gd.g.Supported(text)
	if !ok {
		gd.claims = append(gd.claims, claims...)
	}
	return ok
}

// ok checks a replacement, which is ours, so nothing is recorded.
func (gd *guard) ok(text string) bool {
	if strings.TrimSpace(text) == "" {
		return false
	}
	ok, _ := gd.g.Supported(text)
	return ok
}

// long cleans a long field of the content, recording what it removes.
func (gd *guard) long(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	out, claims := gd.g.Clean(text)
	gd.claims = append(gd.claims, claims...)
	return strings.TrimSpace(out)
}

// clean cleans a replacement.
func (gd *guard) clean(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	out, _ := gd.g.Clean(text)
	return strings.TrimSpace(out)
}

// longOr cleans text; when nothing is left, the built-in text cleaned; when nothing is left
// of that either, the fact-free last resort.
func (gd *guard) longOr(text, builtin, last string) string {
	if out := gd.long(text); out != "" {
		return out
	}
	if out := gd.clean(builtin); out != "" {
		return out
	}
	return last
}

// firstOK returns the first candidate that passes and is not taken, else the first of last
// that is not taken, else last's first.
func (gd *guard) firstOK(cands []string, taken func(string) bool, last []string) string {
	for _, c := range cands {
		if !taken(c) && gd.ok(c) {
			return c
		}
	}
	for _, c := range last {
		if !taken(c) {
			return c
		}
	}
	if len(last) > 0 {
		return last[0]
	}
	return ""
}

func (gd *guard) builtLean() *Lean {
	if gd.baseLean == nil {
		gd.baseLean = gd.p.lean(gd.p.format)
	}
	return gd.baseLean
}

func (gd *guard) builtFull() *Full {
	if gd.baseFull == nil {
		gd.baseFull = gd.p.full()
	}
	return gd.baseFull
}

func (gd *guard) builtStrategy() *Strategy {
	if gd.baseStrategy == nil {
		gd.baseStrategy = gd.p.strategy()
	}
	return gd.baseStrategy
}

// safeBody is the body that states nothing: an opener on the business (or the range) and a
// desire line.
func (p *plan) safeBody() string {
	s := p.t.genericSubject
	if p.business != "" {
		s = p.business
	}
	return p.f(pick(p.tt.open, p.seed), "s", s) + " " + p.f(pick(p.tt.desire, p.seed))
}

// safeCTAs are the calls to action a repair may use, best first; the last are fact-free.
func (p *plan) safeCTAs() (cands, last []string) {
	cands = append(cands, p.cta(p.tone))
	for _, tone := range tonePresets {
		if tone != p.tone {
			cands = append(cands, p.cta(tone))
		}
	}
	last = []string{p.f(p.tt.cta[p.stage])}
	for _, tone := range tonePresets {
		last = append(last, p.f(p.t.toneFor(tone).cta[p.stage]))
	}
	return cands, last
}

func (gd *guard) lean(l *Lean) {
	p := gd.p
	l.Headline = strings.TrimSpace(l.Headline)
	if !gd.short(l.Headline) {
		l.Headline = gd.firstOK(p.headlines(), func(h string) bool { return slices.Contains(l.Variants, h) }, p.genericHeadlines())
	}
	if body := gd.long(l.Body); body != "" {
		l.Body = body
	} else if body = gd.clean(gd.builtLean().Body); body != "" {
		l.Body = body
	} else {
		l.Body = p.safeBody()
	}
	l.CTA = strings.TrimSpace(l.CTA)
	if !gd.short(l.CTA) {
		cands, last := p.safeCTAs()
		l.CTA = gd.firstOK(cands, func(string) bool { return false }, last)
	}
	l.Variants = gd.variants(l.Variants, l.Headline, p.variants)
	l.Hashtags = gd.hashtags(l.Hashtags)
	if l.StrategyUsed = strings.TrimSpace(l.StrategyUsed); !gd.short(l.StrategyUsed) {
		l.StrategyUsed = p.framework
	}
}

// variants keeps the supported variants (once each, none equal to the headline), at most n,
// and refills them from the built-in headlines to exactly n.
func (gd *guard) variants(in []string, headline string, n int) []string {
	out := make([]string, 0, n)
	taken := func(v string) bool { return v == headline || slices.Contains(out, v) }
	for _, v := range in {
		v = strings.TrimSpace(v)
		if v == "" || taken(v) || len(out) == n {
			continue
		}
		if gd.short(v) {
			out = append(out, v)
		}
	}
	for _, h := range gd.p.headlines() {
		if len(out) == n {
			break
		}
		if !taken(h) && gd.ok(h) {
			out = append(out, h)
		}
	}
	for _, h := range gd.p.genericHeadlines() {
		if len(out) == n {
			break
		}
		if !taken(h) {
			out = append(out, h)
		}
	}
	return out
}

// hashtags keeps the supported hashtags, without '#', once each.
func (gd *guard) hashtags(in []string) []string {
	out := []string{}
	for _, h := range in {
		h = cleanTag(h)
		if h == "" || containsFold(out, h) {
			continue
		}
		// A hashtag is checked as written and as the words it runs together, so that
		// "FreeShipping" is read as "Free Shipping".
		if gd.short(h) && (splitCamel(h) == h || gd.short(splitCamel(h))) {
			out = append(out, h)
		}
	}
	return out
}

// splitCamel separates the words a CamelCase hashtag runs together: "FreeShipping" →
// "Free Shipping", "Uludag2Tent" → "Uludag 2 Tent".
func splitCamel(h string) string {
	var b strings.Builder
	var prev rune
	for i, r := range h {
		if i > 0 && ((unicode.IsUpper(r) && unicode.IsLower(prev)) || (unicode.IsDigit(r) != unicode.IsDigit(prev))) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// cleanTag strips '#' and white space from a hashtag.
func cleanTag(h string) string {
	h = strings.TrimLeft(strings.TrimSpace(h), "#＃")
	return strings.Join(strings.Fields(h), "")
}

func (gd *guard) full(f *Full) {
	p, t := gd.p, gd.p.t
	base := gd.builtFull
	f.Positioning = gd.longOr(f.Positioning, base().Positioning, p.f(t.positioningNoAud, "s", p.brandName()))
	f.Segment = gd.longOr(f.Segment, base().Segment, t.segmentNone)
	if !slices.Contains(stages, f.FunnelStage) {
		f.FunnelStage = p.stage
	}
	f.StrategyRationale = gd.longOr(f.StrategyRationale, base().StrategyRationale, p.f(t.rationale[p.framework], "stage", t.stageNames[p.stage]))

	f.Angles = gd.angles(f.Angles)
	f.Objections = gd.objections(f.Objections)
	f.ChannelAdaptations = gd.channels(f.ChannelAdaptations)
	f.ProofPoints = gd.proofPoints(f.ProofPoints)
	f.Hashtags = gd.hashtags(f.Hashtags)
	gd.experiment(&f.NextExperiment, base().NextExperiment)
}

func (gd *guard) angles(in []Angle) []Angle {
	p := gd.p
	out := []Angle{}
	hooks := []string{}
	taken := func(h string) bool { return slices.Contains(hooks, h) }
	for _, a := range in {
		msg := gd.long(a.Message)
		if msg == "" {
			continue
		}
		name := strings.TrimSpace(a.Name)
		if !gd.short(name) {
			name = p.t.angleNeed
		}
		hook := strings.TrimSpace(a.Hook)
		if taken(hook) || !gd.short(hook) {
			hook = gd.firstOK(p.headlines(), taken, p.genericHeadlines())
		}
		hooks = append(hooks, hook)
		out = append(out, Angle{Name: name, Hook: hook, Message: msg})
	}
	if len(out) > 0 {
		return out
	}
	for _, a := range gd.builtFull().Angles {
		if msg := gd.clean(a.Message); msg != "" && gd.ok(a.Name) && gd.ok(a.Hook) {
			out = append(out, Angle{Name: a.Name, Hook: a.Hook, Message: msg})
		}
	}
	if len(out) == 0 {
		out = append(out, Angle{Name: p.t.angleNeed, Hook: p.f(pick(p.tt.headGeneric, p.seed)), Message: p.f(pick(p.tt.desire, p.seed))})
	}
	return out
}

func (gd *guard) objections(in []Objection) []Objection {
	p := gd.p
	out := []Objection{}
	for _, o := range in {
		q := gd.long(o.Objection)
		if q == "" {
			continue
		}
		r := gd.long(o.Response)
		if r == "" {
			r = p.t.fallbackResponse
		}
		out = append(out, Objection{Objection: q, Response: r})
	}
	if len(out) > 0 {
		return out
	}
	for _, o := range gd.builtFull().Objections {
		if q, r := gd.clean(o.Objection), gd.clean(o.Response); q != "" && r != "" {
			out = append(out, Objection{Objection: q, Response: r})
		}
	}
	if len(out) == 0 {
		out = append(out, Objection{Objection: p.t.trustNoName, Response: p.t.fallbackResponse})
	}
	return out
}

func (gd *guard) channels(in []ChannelAdaptation) []ChannelAdaptation {
	out := []ChannelAdaptation{}
	for _, c := range in {
		name := strings.TrimSpace(c.Channel)
		if !gd.short(name) {
			continue
		}
		cp := gd.long(c.Copy)
		if cp == "" {
			continue
		}
		out = append(out, ChannelAdaptation{Channel: name, Copy: cp, Notes: gd.long(c.Notes)})
	}
	if len(out) > 0 {
		return out
	}
	for _, c := range gd.builtFull().ChannelAdaptations {
		if cp := gd.clean(c.Copy); cp != "" {
			out = append(out, ChannelAdaptation{Channel: c.Channel, Copy: cp, Notes: c.Notes})
		}
	}
	if len(out) == 0 {
		p := gd.p
		ch := p.format
		if ch == "" {
			ch = formatSocial
		}
		out = append(out, ChannelAdaptation{Channel: p.t.channels[ch], Copy: p.safeBody(), Notes: p.t.chanNotes[ch]})
	}
	return out
}

// proofPoints keeps the claims that pass, each cited by the document it came from: the one
// the point names by URL or title when the sources hold it, else the passage that contains
// the claim, else none.
func (gd *guard) proofPoints(in []ProofPoint) []ProofPoint {
	out := []ProofPoint{}
	for _, pp := range in {
		claim := gd.long(pp.Claim)
		if claim == "" {
			continue
		}
		title, url := gd.p.citation(ProofPoint{Claim: claim, Source: pp.Source, URL: pp.URL})
		out = append(out, ProofPoint{Claim: claim, Source: title, URL: url})
	}
	return out
}

// citation finds the document a proof point came from.
func (p *plan) citation(pp ProofPoint) (title, url string) {
	u, s := strings.TrimSpace(pp.URL), oneLine(pp.Source)
	for _, pr := range p.src.Products {
		if (u != "" && pr.URL == u) || (s != "" && strings.EqualFold(oneLine(pr.Name), s)) {
			return oneLine(pr.Name), pr.URL
		}
	}
	for _, ps := range p.src.Passages {
		if (u != "" && ps.URL == u) || (s != "" && strings.EqualFold(factTitle(ps.Title, ps.URL), s)) {
			return factTitle(ps.Title, ps.URL), ps.URL
		}
	}
	claim := strings.ToLower(oneLine(pp.Claim))
	for _, ps := range p.src.Passages {
		if claim != "" && strings.Contains(strings.ToLower(oneLine(ps.Text)), claim) {
			return factTitle(ps.Title, ps.URL), ps.URL
		}
	}
	for name, text := range p.src.ProductText {
		if claim != "" && strings.Contains(strings.ToLower(oneLine(text)), claim) {
			for _, pr := range p.src.Products {
				if pr.Name == name {
					return oneLine(pr.Name), pr.URL
				}
			}
			return oneLine(name), ""
		}
	}
	return "", ""
}

// experiment repairs an A/B test from the built-in one.
func (gd *guard) experiment(e *Experiment, base Experiment) {
	p := gd.p
	e.Hypothesis = gd.longOr(e.Hypothesis, base.Hypothesis, base.Hypothesis)
	generic := p.genericHeadlines()
	e.VariantA = strings.TrimSpace(e.VariantA)
	if !gd.short(e.VariantA) {
		e.VariantA = gd.firstOK([]string{base.VariantA}, func(string) bool { return false }, generic)
	}
	e.VariantB = strings.TrimSpace(e.VariantB)
	if e.VariantB == e.VariantA || !gd.short(e.VariantB) {
		e.VariantB = gd.firstOK([]string{base.VariantB, base.VariantA}, func(v string) bool { return v == e.VariantA }, generic)
	}
	if e.Metric = strings.TrimSpace(e.Metric); !gd.short(e.Metric) {
		e.Metric = base.Metric
	}
}

func (gd *guard) strategy(s *Strategy) {
	p := gd.p
	for i := range s.Sections {
		sec := &s.Sections[i]
		base := gd.baseSection(sec.Key)
		sec.Summary = gd.longOr(sec.Summary, base.Summary, p.sectionFallback(sec.Key))
		points := []string{}
		for _, pt := range sec.Points {
			if c := gd.long(pt); c != "" {
				points = append(points, c)
			}
		}
		sec.Points = points

		if len(sec.Personas) > 0 || sec.Key == SectionPersonas {
			sec.Personas = gd.personas(sec.Personas, base.Personas)
		}
		if len(sec.Stages) > 0 || sec.Key == SectionFunnel {
			sec.Stages = gd.stages(sec.Stages, base.Stages)
		}
		if len(sec.KPIs) > 0 || sec.Key == SectionMeasurement {
			sec.KPIs = gd.kpis(sec.KPIs, base.KPIs)
		}
		if len(sec.Experiments) > 0 || sec.Key == SectionExperiments {
			var kept []Experiment
			for j := range sec.Experiments {
				b := p.experiment(gd.builtLean().Headline)
				if j < len(base.Experiments) {
					b = base.Experiments[j]
				}
				gd.experiment(&sec.Experiments[j], b)
				kept = append(kept, sec.Experiments[j])
			}
			if len(kept) == 0 {
				kept = append(kept, base.Experiments...)
				for j := range kept {
					gd.experiment(&kept[j], kept[j])
				}
			}
			sec.Experiments = kept
		}
	}
}

// baseSection is the built-in section of a key (empty for a key the strategy has not).
func (gd *guard) baseSection(key string) Section {
	for _, s := range gd.builtStrategy().Sections {
		if s.Key == key {
			return s
		}
	}
	return Section{}
}

// sectionFallback is a section's fact-free summary.
func (p *plan) sectionFallback(key string) string {
	t := p.t
	switch key {
	case SectionMarketAnalysis:
		return t.marketResearch
	case SectionPersonas:
		return t.personasSummary
	case SectionPositioning:
		return t.positioningGuard
	case SectionMessaging:
		return p.f(t.messagingTone, "tone", t.toneNames[p.tone])
	case SectionFunnel:
		return p.f(t.funnelSummary, "stage", t.stageNames[p.stage])
	case SectionChannelMix:
		return t.channelMixDefault
	case SectionContentPlan:
		return t.contentSummary
	case SectionMeasurement:
		return t.measurementSummary
	case SectionRoadmap:
		return t.roadmapSummary
	case SectionExperiments:
		return t.experimentsSummary
	case SectionBudget:
		return t.budgetSummary
	}
	return t.risksSummary
}

func (gd *guard) personas(in, base []Persona) []Persona {
	p, t := gd.p, gd.p.t
	if len(in) == 0 {
		in = base
	}
	out := make([]Persona, 0, len(in))
	for i, ps := range in {
		var b Persona
		if i < len(base) {
			b = base[i]
		} else if len(base) > 0 {
			b = base[len(base)-1]
		}
		def := t.personas[min(i, len(t.personas)-1)]
		name := strings.TrimSpace(ps.Name)
		if !gd.short(name) {
			name = b.Name
			if name == "" {
				name = t.personaCoreName
			}
		}
		out = append(out, Persona{
			Name:    name,
			Profile: gd.longOr(ps.Profile, b.Profile, p.f(def.profileNoC, "b", p.brandName())),
			Job:     gd.longOr(ps.Job, b.Job, p.f(def.jobNoC, "b", p.brandName())),
			Forces: Forces{
				Push:    gd.longOr(ps.Forces.Push, b.Forces.Push, def.push),
				Pull:    gd.longOr(ps.Forces.Pull, b.Forces.Pull, p.f(def.pull, "b", p.brandName())),
				Anxiety: gd.longOr(ps.Forces.Anxiety, b.Forces.Anxiety, def.anxiety),
				Habit:   gd.longOr(ps.Forces.Habit, b.Forces.Habit, def.habit),
			},
		})
	}
	return out
}

func (gd *guard) stages(in, base []Stage) []Stage {
	p, t := gd.p, gd.p.t
	if len(in) == 0 {
		in = base
	}
	out := make([]Stage, 0, len(in))
	for _, st := range in {
		if !slices.Contains(stages, st.Stage) {
			continue
		}
		var b Stage
		for _, x := range base {
			if x.Stage == st.Stage {
				b = x
			}
		}
		chans := []string{}
		for _, c := range st.Channels {
			if c = strings.TrimSpace(c); c != "" && gd.short(c) {
				chans = append(chans, c)
			}
		}
		if len(chans) == 0 {
			chans = append(chans, b.Channels...)
		}
		out = append(out, Stage{
			Stage:     st.Stage,
			Objective: gd.longOr(st.Objective, b.Objective, p.f(t.objectives[st.Stage], "a", p.audienceOr())),
			Message:   gd.longOr(st.Message, b.Message, p.f(p.tt.cta[st.Stage])),
			Channels:  chans,
		})
	}
	return out
}

func (gd *guard) kpis(in, base []KPI) []KPI {
	t := gd.p.t
	if len(in) == 0 {
		in = base
	}
	out := make([]KPI, 0, len(in))
	for _, k := range in {
		name := strings.TrimSpace(k.Name)
		if !gd.short(name) {
			name = t.kpiNames[k.Stage]
			if name == "" {
				continue
			}
		}
		def := t.kpiDefinitions[k.Stage]
		out = append(out, KPI{
			Name:       name,
			Stage:      k.Stage,
			Definition: gd.longOr(k.Definition, def, def),
			Target:     gd.longOr(k.Target, t.kpiTarget, t.kpiTarget),
		})
	}
	if len(out) == 0 {
		out = append(out, base...)
	}
	return out
}
