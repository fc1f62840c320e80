package marketing

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"svc/internal/grounding"
	"svc/internal/lang/lexicon"
	"svc/internal/textindex"
)

// ErrNotJSON is returned by Parse for a reply that holds no JSON value.
var ErrNotJSON = errors.New("marketing: model reply is not JSON")

// Parse reads a model reply into the content of req.Depth, fixing what it can (missing
// arrays → [], wrong variant count → trimmed or topped up from the built-in composer, '#'
// stripped from hashtags, strategy sections completed from the built-in composer so there
// are always exactly twelve in order), and errs only when the reply is not JSON.
//
// It is lenient about shape: a reply wrapped in a Markdown code fence or in an outer
// "content" object, keys in camelCase, a list given as one string, or a field under a common
// synonym ("subject" for headline, "answer" for response) is read as meant. What is missing
// or empty is taken from the built-in composer: headline, body and call to action; the
// strings of the full deliverable and its angles, objections, channel adaptations, proof
// points and A/B test; a section's summary, and the personas, stages, KPIs and experiments of
// their sections. Missing hashtags stay an empty list. Parse does not guard: the caller runs
// Guard on its result.
func Parse(req Request, src grounding.Sources, text string) (Content, error) {
	v, err := parseJSON(text)
	if err != nil {
		return nil, err
	}
	p := newPlan(req, src)
	obj := p.unwrap(v)
	switch p.depth {
	case DepthFull:
		return p.parseFull(obj), nil
	case DepthStrategy:
		return p.parseStrategy(obj), nil
	}
	return p.parseLean(obj), nil
}

// parseJSON reads the first JSON value of a reply, skipping a code fence or prose before an
// object or a list.
func parseJSON(text string) (any, error) {
	text = strings.TrimSpace(text)
	var whole any
	if dec := json.NewDecoder(strings.NewReader(text)); text != "" {
		dec.UseNumber()
		if err := dec.Decode(&whole); err == nil {
			return whole, nil
		}
	}
	start := strings.IndexAny(text, "{[")
	if start < 0 {
		return nil, ErrNotJSON
	}
	// Try every opening brace from the first: prose before the JSON may itself hold one.
	for i := start; i < len(text); i++ {
		if text[i] != '{' && text[i] != '[' {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err == nil {
			return v, nil
		}
	}
	return nil, fmt.Errorf("%w: %.60q", ErrNotJSON, text)
}

// obj is a JSON object with keys normalised: lower case, letters and digits only, so that
// "funnel_stage", "funnelStage" and "Funnel Stage" are one key.
type obj map[string]any

func normObj(m map[string]any) obj {
	out := make(obj, len(m))
	for k, v := range m {
		nk := normKey(k)
		if _, dup := out[nk]; !dup {
			out[nk] = v
		}
	}
	return out
}

func normKey(k string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(k) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// get returns the first of the names present.
func (o obj) get(names ...string) any {
	for _, n := range names {
		if v, ok := o[normKey(n)]; ok && v != nil {
			return v
		}
	}
	return nil
}

func (o obj) str(names ...string) string { return str(o.get(names...)) }

// unwrap finds the object that holds the content: the reply itself, or an object under a
// wrapper key such as "content" when the reply lacks the depth's own keys.
func (p *plan) unwrap(v any) obj {
	var o obj
	switch x := v.(type) {
	case map[string]any:
		o = normObj(x)
	case []any:
		if p.depth == DepthStrategy {
			return obj{"sections": x}
		}
		if len(x) > 0 {
			if m, ok := x[0].(map[string]any); ok {
				o = normObj(m)
			}
		}
	}
	if o == nil {
		return obj{}
	}
	own := map[string][]string{
		DepthLean:     {"headline", "body", "cta", "variants"},
		DepthFull:     {"positioning", "angles", "objections", "proofpoints"},
		DepthStrategy: {"sections", "marketanalysis"},
	}[p.depth]
	for _, k := range own {
		if _, ok := o[k]; ok {
			return o
		}
	}
	for _, w := range []string{"content", "data", "result", "output", "response", "strategy", "lean", "full", "copy", "deliverable"} {
		if inner, ok := o[w].(map[string]any); ok {
			return p.unwrap(inner)
		}
		if inner, ok := o[w].([]any); ok && p.depth == DepthStrategy {
			return obj{"sections": inner}
		}
	}
	return o
}

// str reads a value as text: a string as it is, a number as written, a list as its items
// joined, an object as its text-like field.
func str(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return x.String()
	case []any:
		var parts []string
		for _, it := range x {
			if s := str(it); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, " ")
	case map[string]any:
		o := normObj(x)
		return o.str("text", "value", "content", "copy", "message", "headline", "title", "name")
	}
	return ""
}

// strList reads a value as a list of texts: a list's items, or a string's lines.
func strList(v any) []string {
	var out []string
	switch x := v.(type) {
	case []any:
		for _, it := range x {
			if s := str(it); s != "" {
				out = append(out, s)
			}
		}
	case string:
		for _, line := range strings.Split(x, "\n") {
			if s := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-•*")); s != "" {
				out = append(out, s)
			}
		}
	default:
		if s := str(v); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// objList reads a value as a list of objects: a list's object items (a string item becomes
// {"text": item}), one object, or an object of objects (whose keys go under "_key").
func objList(v any) []obj {
	var out []obj
	switch x := v.(type) {
	case []any:
		for _, it := range x {
			switch y := it.(type) {
			case map[string]any:
				out = append(out, normObj(y))
			case string:
				if s := strings.TrimSpace(y); s != "" {
					out = append(out, obj{"text": s})
				}
			}
		}
	case map[string]any:
		allObjects := len(x) > 0
		for _, val := range x {
			if _, ok := val.(map[string]any); !ok {
				allObjects = false
			}
		}
		if !allObjects {
			return []obj{normObj(x)}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			o := normObj(x[k].(map[string]any))
			o["key"] = k
			out = append(out, o)
		}
	}
	return out
}

// hashtagList reads hashtags: items or one string, split at white space and commas, '#'
// stripped.
func hashtagList(v any) []string {
	out := []string{}
	for _, item := range strList(v) {
		for _, h := range strings.FieldsFunc(item, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == ';' }) {
			if h = cleanTag(h); h != "" && !containsFold(out, h) {
				out = append(out, h)
			}
		}
	}
	return out
}

func orStr(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

func (p *plan) parseLean(o obj) *Lean {
	base := p.lean(p.format)
	l := &Lean{
		Headline:     orStr(o.str("headline", "title", "subject", "subject_line"), base.Headline),
		Body:         orStr(o.str("body", "copy", "text", "main_copy", "message"), base.Body),
		CTA:          orStr(o.str("cta", "call_to_action", "calltoaction", "action"), base.CTA),
		Hashtags:     hashtagList(o.get("hashtags", "tags", "hash_tags")),
		StrategyUsed: strategyUsed(o.get("strategy_used", "framework", "frameworks", "strategy")),
	}
	if l.StrategyUsed == "" {
		l.StrategyUsed = base.StrategyUsed
	}
	l.Variants = p.fixVariants(strList(o.get("variants", "alternatives", "alternative_headlines", "headlines", "hooks")), l.Headline)
	return l
}

// strategyUsed reads the framework field: a list of frameworks is joined with " + ".
func strategyUsed(v any) string {
	if list, ok := v.([]any); ok {
		return strings.Join(strList(list), " + ")
	}
	return str(v)
}

// fixVariants makes exactly p.variants headlines other than headline, once each: the
// reply's first, then the built-in composer's.
func (p *plan) fixVariants(in []string, headline string) []string {
	out := make([]string, 0, p.variants)
	for _, v := range in {
		if v = strings.TrimSpace(v); v != "" && v != headline && !containsString(out, v) && len(out) < p.variants {
			out = append(out, v)
		}
	}
	for _, h := range append(p.variantLines(headline, 5), p.genericHeadlines()...) {
		if len(out) == p.variants {
			break
		}
		if h != headline && !containsString(out, h) {
			out = append(out, h)
		}
	}
	return out
}

func (p *plan) parseFull(o obj) *Full {
	base := p.full()
	f := &Full{
		Positioning:       orStr(o.str("positioning", "positioning_statement"), base.Positioning),
		Segment:           orStr(o.str("segment", "target_segment", "audience"), base.Segment),
		FunnelStage:       normStage(o.str("funnel_stage", "stage", "funnel")),
		StrategyRationale: orStr(o.str("strategy_rationale", "rationale"), base.StrategyRationale),
		Hashtags:          hashtagList(o.get("hashtags", "tags")),
	}
	if f.FunnelStage == "" {
		f.FunnelStage = base.FunnelStage
	}
	for _, a := range objList(o.get("angles")) {
		an := Angle{Name: a.str("name", "title", "angle", "key"), Hook: a.str("hook", "headline"), Message: a.str("message", "copy", "body", "description", "text")}
		if an.Message == "" {
			an.Message = an.Hook
		}
		if an.Message == "" {
			continue
		}
		if an.Name == "" {
			an.Name = p.t.angleNeed
		}
		if an.Hook == "" {
			an.Hook = p.headlines()[len(f.Angles)%len(p.headlines())]
		}
		f.Angles = append(f.Angles, an)
	}
	if len(f.Angles) == 0 {
		f.Angles = base.Angles
	}
	for _, ob := range objList(o.get("objections")) {
		q := ob.str("objection", "question", "concern", "text")
		if q == "" {
			continue
		}
		f.Objections = append(f.Objections, Objection{Objection: q, Response: orStr(ob.str("response", "answer", "rebuttal", "reply"), p.t.fallbackResponse)})
	}
	if len(f.Objections) == 0 {
		f.Objections = base.Objections
	}
	for _, c := range objList(o.get("channel_adaptations", "channels", "adaptations")) {
		ca := ChannelAdaptation{Channel: c.str("channel", "name", "platform", "key"), Copy: c.str("copy", "text", "content", "body", "message"), Notes: c.str("notes", "note", "tips", "guidance")}
		if ca.Channel != "" && ca.Copy != "" {
			f.ChannelAdaptations = append(f.ChannelAdaptations, ca)
		}
	}
	if len(f.ChannelAdaptations) == 0 {
		f.ChannelAdaptations = base.ChannelAdaptations
	}
	for _, pp := range objList(o.get("proof_points", "proof", "proofs")) {
		claim := pp.str("claim", "fact", "point", "text")
		if claim == "" {
			continue
		}
		title, url := p.citation(ProofPoint{Claim: claim, Source: pp.str("source", "title", "document"), URL: pp.str("url", "link", "source_url")})
		f.ProofPoints = append(f.ProofPoints, ProofPoint{Claim: claim, Source: title, URL: url})
	}
	if len(f.ProofPoints) == 0 {
		f.ProofPoints = base.ProofPoints
	}
	f.NextExperiment = parseExperiment(o.get("next_experiment", "experiment", "ab_test"), base.NextExperiment)
	return f
}

// parseExperiment reads an A/B test, the built-in one filling what is missing.
func parseExperiment(v any, base Experiment) Experiment {
	e := base
	list := objList(v)
	if len(list) == 0 {
		return e
	}
	o := list[0]
	e.Hypothesis = orStr(o.str("hypothesis", "text"), base.Hypothesis)
	e.VariantA = orStr(o.str("variant_a", "a", "control", "version_a"), base.VariantA)
	e.VariantB = orStr(o.str("variant_b", "b", "challenger", "version_b"), base.VariantB)
	e.Metric = orStr(o.str("metric", "kpi", "success_metric", "primary_metric"), base.Metric)
	if e.VariantB == e.VariantA {
		e.VariantB = base.VariantB
		if e.VariantB == e.VariantA {
			e.VariantB = base.VariantA
		}
	}
	return e
}

// stageAliases are the words a model may use for a funnel stage, folded (the lexicon's
// marketing_stage_aliases). Read-only.
var stageAliases = tableMap(lexicon.MarketingStageAliases)

// tableMap copies a shared lexicon table into a map.
func tableMap(l lexicon.List) map[string]string {
	t := lexicon.Default().Table(l, "")
	m := make(map[string]string, t.Len())
	for _, k := range t.Keys() {
		m[k], _ = t.Get(k)
	}
	return m
}

// normStage maps a model's stage to one of stages, or "".
func normStage(s string) string {
	f := strings.Join(strings.Fields(textindex.Fold(s)), " ")
	if st, ok := stageAliases[f]; ok {
		return st
	}
	for _, w := range strings.FieldsFunc(f, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if st, ok := stageAliases[w]; ok {
			return st
		}
	}
	return ""
}

// sectionAliases maps folded section titles of the three languages, and common synonyms, to
// section keys.
var sectionAliases = func() map[string]string {
	m := tableMap(lexicon.MarketingSectionAliases)
	for _, key := range sectionKeys {
		m[normKey(key)] = key
	}
	for _, t := range allTexts {
		for key, title := range t.sectionTitles {
			m[normKey(textindex.Fold(title))] = key
		}
	}
	return m
}()

func sectionKey(o obj) string {
	for _, cand := range []string{o.str("key", "id", "section"), o.str("title", "name", "heading")} {
		if k, ok := sectionAliases[normKey(textindex.Fold(cand))]; ok {
			return k
		}
	}
	return ""
}

func (p *plan) parseStrategy(o obj) *Strategy {
	base := p.strategy()
	var raw []obj
	if v := o.get("sections"); v != nil {
		raw = objList(v)
	} else {
		// The sections as top-level keys: {"market_analysis": {...}, ...}.
		for _, key := range sectionKeys {
			if v := o.get(key); v != nil {
				so := obj{"key": key}
				switch x := v.(type) {
				case map[string]any:
					so = normObj(x)
					so["key"] = key
				case string, []any:
					so["summary"] = x
				}
				raw = append(raw, so)
			}
		}
	}
	parsed := make(map[string]obj)
	for _, so := range raw {
		if k := sectionKey(so); k != "" {
			if _, dup := parsed[k]; !dup {
				parsed[k] = so
			}
		}
	}
	out := &Strategy{Sections: make([]Section, 0, len(sectionKeys))}
	for i, key := range sectionKeys {
		b := base.Sections[i]
		so, ok := parsed[key]
		if !ok {
			out.Sections = append(out.Sections, b)
			continue
		}
		s := Section{
			Key:     key,
			Title:   b.Title,
			Summary: orStr(so.str("summary", "description", "overview", "text", "content"), b.Summary),
			Points:  pointList(so.get("points", "items", "bullets", "details", "actions")),
		}
		switch key {
		case SectionPersonas:
			s.Personas = p.parsePersonas(so.get("personas", "persona"), b.Personas)
		case SectionFunnel:
			s.Stages = parseStages(so.get("stages", "funnel"), b.Stages)
		case SectionMeasurement:
			s.KPIs = p.parseKPIs(so.get("kpis", "kpi", "metrics"), b.KPIs)
		case SectionExperiments:
			for j, eo := range objList(so.get("experiments", "tests", "ab_tests")) {
				be := b.Experiments[min(j, len(b.Experiments)-1)]
				s.Experiments = append(s.Experiments, parseExperiment(map[string]any(eo), be))
			}
			if len(s.Experiments) == 0 {
				s.Experiments = b.Experiments
			}
		}
		out.Sections = append(out.Sections, s)
	}
	return out
}

// pointList reads a section's points; an object point becomes its fields joined.
func pointList(v any) []string {
	out := []string{}
	list, ok := v.([]any)
	if !ok {
		return append(out, strList(v)...)
	}
	for _, it := range list {
		if m, ok := it.(map[string]any); ok {
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var parts []string
			for _, k := range keys {
				if s := str(m[k]); s != "" {
					parts = append(parts, s)
				}
			}
			if s := strings.Join(parts, " – "); s != "" {
				out = append(out, s)
			}
			continue
		}
		if s := str(it); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (p *plan) parsePersonas(v any, base []Persona) []Persona {
	var out []Persona
	for i, po := range objList(v) {
		b := base[min(i, len(base)-1)]
		forces := obj{}
		if list := objList(po.get("forces")); len(list) > 0 {
			forces = list[0]
		}
		force := func(name string) string {
			return orStr(orStr(forces.str(name), po.str(name)), "")
		}
		ps := Persona{
			Name:    orStr(po.str("name", "persona", "title", "key"), b.Name),
			Profile: orStr(po.str("profile", "description", "who", "summary"), b.Profile),
			Job:     orStr(po.str("job", "jtbd", "job_to_be_done", "jobs_to_be_done", "jobs"), b.Job),
			Forces: Forces{
				Push:    orStr(force("push"), b.Forces.Push),
				Pull:    orStr(force("pull"), b.Forces.Pull),
				Anxiety: orStr(force("anxiety"), b.Forces.Anxiety),
				Habit:   orStr(force("habit"), b.Forces.Habit),
			},
		}
		out = append(out, ps)
	}
	if len(out) == 0 {
		return base
	}
	return out
}

// parseStages reads the funnel's stages and completes them: the five stages in order, each
// once, the built-in composer's where the reply has none.
func parseStages(v any, base []Stage) []Stage {
	got := make(map[string]Stage)
	for _, so := range objList(v) {
		st := normStage(orStr(so.str("stage", "name", "key"), so.str("title")))
		if st == "" {
			continue
		}
		if _, dup := got[st]; dup {
			continue
		}
		var b Stage
		for _, x := range base {
			if x.Stage == st {
				b = x
			}
		}
		chans := strList(so.get("channels", "channel"))
		if len(chans) == 0 {
			chans = b.Channels
		}
		got[st] = Stage{
			Stage:     st,
			Objective: orStr(so.str("objective", "goal", "aim"), b.Objective),
			Message:   orStr(so.str("message", "copy", "content", "text"), b.Message),
			Channels:  chans,
		}
	}
	out := make([]Stage, 0, len(stages))
	for _, b := range base {
		if s, ok := got[b.Stage]; ok {
			out = append(out, s)
		} else {
			out = append(out, b)
		}
	}
	return out
}

func (p *plan) parseKPIs(v any, base []KPI) []KPI {
	var out []KPI
	for _, ko := range objList(v) {
		name := ko.str("name", "kpi", "metric", "text")
		if name == "" {
			continue
		}
		st := normStage(ko.str("stage", "funnel_stage"))
		if st == "" {
			st = normStage(name)
		}
		if st == "" {
			st = p.stage
		}
		out = append(out, KPI{
			Name:       name,
			Stage:      st,
			Definition: orStr(ko.str("definition", "description", "formula"), p.t.kpiDefinitions[st]),
			Target:     orStr(ko.str("target", "goal", "benchmark"), p.t.kpiTarget),
		})
	}
	if len(out) == 0 {
		return base
	}
	return out
}
