// Package marketing writes the marketing generator's content (SERVICE.md, "Marketing
// generator"): lean copy, the full deliverable and the twelve-section strategy, in Turkish,
// English or German.
//
// Two writers share one set of types. The built-in composer (Compose) works offline: it fills
// native templates per language and tone, and weaves in sentences copied word for word from
// the knowledge base, chosen with the project's analyzer. The model path is Prompt, then the
// caller's provider call, then Parse, which repairs what a model gets wrong in shape. Both end
// in Guard, which runs the grounding guard over every text field: a brief describes intent
// only, so no price, discount, number, product name or feature reaches the output unless the
// sources say it.
package marketing

import (
	"svc/internal/grounding"
)

// Depths of the generator.
const (
	DepthLean     = "lean"
	DepthFull     = "full"
	DepthStrategy = "strategy"
)

// Funnel stages, the values of Full.FunnelStage and Stage.Stage.
const (
	StageAwareness     = "awareness"
	StageConsideration = "consideration"
	StageConversion    = "conversion"
	StageRetention     = "retention"
	StageAdvocacy      = "advocacy"
)

// stages lists the funnel stages in order.
var stages = []string{StageAwareness, StageConsideration, StageConversion, StageRetention, StageAdvocacy}

// FunnelStages returns the funnel stages in order (a copy).
func FunnelStages() []string { return append([]string(nil), stages...) }

// Keys of the strategy's twelve sections, in their order.
const (
	SectionMarketAnalysis = "market_analysis"
	SectionPersonas       = "personas"
	SectionPositioning    = "positioning"
	SectionMessaging      = "messaging"
	SectionFunnel         = "funnel"
	SectionChannelMix     = "channel_mix"
	SectionContentPlan    = "content_plan"
	SectionMeasurement    = "measurement"
	SectionRoadmap        = "roadmap"
	SectionExperiments    = "experiments"
	SectionBudget         = "budget"
	SectionRisks          = "risks"
)

// sectionKeys lists the strategy's section keys in their order.
var sectionKeys = []string{
	SectionMarketAnalysis, SectionPersonas, SectionPositioning, SectionMessaging, SectionFunnel,
	SectionChannelMix, SectionContentPlan, SectionMeasurement, SectionRoadmap, SectionExperiments,
	SectionBudget, SectionRisks,
}

// SectionKeys returns the keys of the strategy's twelve sections in their order (a copy).
func SectionKeys() []string { return append([]string(nil), sectionKeys...) }

// Request is one marketingGenerate call, validated by the caller.
type Request struct {
	// Brief is the topic or brief (at most 2,000 characters). It describes intent only and is
	// never treated as fact: its words steer the choice of facts, never supply them.
	Brief string
	// Product is the product or plan to feature. It is featured only when it names a product
	// of the sources (or a name their passages use); otherwise it is ignored.
	Product string
	// Audience is the target audience; it is echoed only when it carries no figures or offers.
	Audience string
	// Goal is the campaign goal, read for its funnel stage (awareness, consideration,
	// conversion, retention, advocacy) in any of the three languages.
	Goal string
	// Tone is the desired voice, free text mapped to the closest preset; empty: TonePreset.
	Tone string
	// Format is the output format hint (social post, email, ad copy, SMS, landing page).
	Format string
	// Variants is the number of alternative headlines, 1..5 (0 means the default, 3).
	Variants int
	// Lang is tr, en or de (anything else is treated as en).
	Lang string
	// Depth is DepthLean (also for ""), DepthFull or DepthStrategy.
	Depth string
	// Business is the account's name.
	Business string
	// TonePreset is the account's tone preset (professional, warm, energetic), used when
	// Tone is empty.
	TonePreset string
}

// Content is one of *Lean, *Full, *Strategy.
type Content any

// Lean is data.content at depth lean.
type Lean struct {
	// Headline is the benefit-first headline (for an e-mail, the subject line). Never empty.
	Headline string `json:"headline"`
	// Body is the main copy: short for a social post or an ad, two to four sentences without a
	// greeting for an e-mail. Never empty.
	Body string `json:"body"`
	// CTA is one call to action. Never empty.
	CTA string `json:"cta"`
	// Variants are alternative headlines or hooks, exactly Request.Variants of them.
	Variants []string `json:"variants"`
	// Hashtags are without '#', possibly empty, never null.
	Hashtags []string `json:"hashtags"`
	// StrategyUsed names the copywriting framework applied: "AIDA", "PAS" or "FAB".
	StrategyUsed string `json:"strategy_used"`
}

// Full is data.content at depth full: the saturated deliverable.
type Full struct {
	// Positioning is the positioning statement, with the facts it rests on.
	Positioning string `json:"positioning"`
	// Segment is the target segment.
	Segment string `json:"segment"`
	// FunnelStage is the stage the campaign works on: awareness, consideration, conversion,
	// retention or advocacy.
	FunnelStage string `json:"funnel_stage"`
	// Angles are the creative angles (at least one).
	Angles []Angle `json:"angles"`
	// Objections are the buyer's likely objections with the answers (at least one).
	Objections []Objection `json:"objections"`
	// ChannelAdaptations are the copy adapted per channel (at least one).
	ChannelAdaptations []ChannelAdaptation `json:"channel_adaptations"`
	// ProofPoints are the facts the copy may cite, each with its source, about the featured
	// product or the brief's subject. Empty only when the sources hold nothing usable on it.
	ProofPoints []ProofPoint `json:"proof_points"`
	// Hashtags are without '#', possibly empty, never null.
	Hashtags []string `json:"hashtags"`
	// StrategyRationale says why the framework and stage were chosen.
	StrategyRationale string `json:"strategy_rationale"`
	// NextExperiment is the A/B test to run next.
	NextExperiment Experiment `json:"next_experiment"`
}

// Angle is one creative angle of the full deliverable.
type Angle struct {
	// Name labels the angle (for a fact-led angle, the title of the page the fact is from).
	Name string `json:"name"`
	// Hook is the headline or opening line that carries the angle.
	Hook string `json:"hook"`
	// Message is the copy of the angle: the fact it rests on, or a fact-free benefit line.
	Message string `json:"message"`
}

// Objection is a likely objection and the answer to it.
type Objection struct {
	// Objection is the buyer's question or doubt, in their words.
	Objection string `json:"objection"`
	// Response answers it, with a fact from the sources when one fits.
	Response string `json:"response"`
}

// ChannelAdaptation is the copy adapted to one channel.
type ChannelAdaptation struct {
	// Channel names the channel (social media post, e-mail, online ad, SMS, landing page).
	Channel string `json:"channel"`
	// Copy is the ready-to-use copy for the channel.
	Copy string `json:"copy"`
	// Notes are practical notes for using the copy on the channel.
	Notes string `json:"notes"`
}

// ProofPoint is a fact the copy may cite and where it comes from.
type ProofPoint struct {
	// Claim is the fact, copied from the sources.
	Claim string `json:"claim"`
	// Source is the title of the knowledge-base document (or the product name) it came from.
	Source string `json:"source"`
	// URL is the address of that document, or "" when it has none.
	URL string `json:"url"`
}

// Experiment is an A/B test.
type Experiment struct {
	// Hypothesis is what the test is expected to show.
	Hypothesis string `json:"hypothesis"`
	// VariantA is the first version (usually a headline or call to action).
	VariantA string `json:"variant_a"`
	// VariantB is the second version.
	VariantB string `json:"variant_b"`
	// Metric is what decides the winner (click-through rate, open rate, conversion rate...).
	Metric string `json:"metric"`
}

// Strategy is data.content at depth strategy: exactly twelve sections, in the order of
// SectionKeys().
type Strategy struct {
	// Sections are market_analysis, personas, positioning, messaging, funnel, channel_mix,
	// content_plan, measurement, roadmap, experiments, budget, risks.
	Sections []Section `json:"sections"`
}

// Section is one section of the strategy. Personas, Stages, KPIs and Experiments belong to
// one section each and are omitted from the JSON of the others; in their own section they are
// never empty.
type Section struct {
	// Key is the section's key, one of SectionKeys().
	Key string `json:"key"`
	// Title is the section's title in the request's language.
	Title string `json:"title"`
	// Summary is the section in a few sentences. Never empty.
	Summary string `json:"summary"`
	// Points are the section's points, possibly empty, never null.
	Points []string `json:"points"`
	// Personas are the personas, in the personas section only.
	Personas []Persona `json:"personas,omitempty"`
	// Stages are the funnel stages in order, in the funnel section only.
	Stages []Stage `json:"stages,omitempty"`
	// KPIs are the key performance indicators, in the measurement section only.
	KPIs []KPI `json:"kpis,omitempty"`
	// Experiments are the A/B tests, in the experiments section only.
	Experiments []Experiment `json:"experiments,omitempty"`
}

// Persona is a target persona with its jobs-to-be-done forces.
type Persona struct {
	// Name names the persona (the brief's audience, or a role such as "Returning customer").
	Name string `json:"name"`
	// Profile describes the persona in a sentence.
	Profile string `json:"profile"`
	// Job is the job to be done: "When ..., I want ..., so I can ...".
	Job string `json:"job"`
	// Forces are the four forces of progress acting on the persona.
	Forces Forces `json:"forces"`
}

// Forces are the jobs-to-be-done forces of progress.
type Forces struct {
	// Push is what pushes the persona away from the current situation.
	Push string `json:"push"`
	// Pull is what draws the persona to the offer (a fact from the sources when there is one).
	Pull string `json:"pull"`
	// Anxiety is what worries the persona about switching.
	Anxiety string `json:"anxiety"`
	// Habit is what keeps the persona where they are.
	Habit string `json:"habit"`
}

// Stage is one stage of the funnel.
type Stage struct {
	// Stage is awareness, consideration, conversion, retention or advocacy.
	Stage string `json:"stage"`
	// Objective is what the stage must achieve.
	Objective string `json:"objective"`
	// Message is the copy or fact the stage leads with.
	Message string `json:"message"`
	// Channels are the channels that carry the stage, never null.
	Channels []string `json:"channels"`
}

// KPI is a key performance indicator.
type KPI struct {
	// Name names the indicator.
	Name string `json:"name"`
	// Stage is the funnel stage it measures.
	Stage string `json:"stage"`
	// Definition says how it is counted.
	Definition string `json:"definition"`
	// Target is the target: a figure only when the sources state one, otherwise a baseline
	// to beat ("baseline from the first two weeks").
	Target string `json:"target"`
}

// Compose writes the content with the built-in engine: templates and extractive selection
// from src, in req.Lang, tone-aware, then guarded. It never invents a fact: every price,
// number, product name or feature in the output comes from src. With empty sources it still
// returns useful, well-formed copy built from the brief's intent and the business name only
// (no facts).
func Compose(req Request, src grounding.Sources) Content {
	p := newPlan(req, src)
	c := build(p)
	guardWith(p, c)
	return c
}

// build writes the unguarded content of p's depth.
func build(p *plan) Content {
	switch p.depth {
	case DepthFull:
		return p.full()
	case DepthStrategy:
		return p.strategy()
	}
	return p.lean(p.format)
}
