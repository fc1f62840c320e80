package marketing

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/store"
)

// The fixed texts of the built-in composer, one set per language, are the i18n catalog's
// "marketing.*" messages (textload.go names each one's key). They are written for each
// language rather than translated, and they state no fact: no price, number, discount,
// product or feature. Facts enter only through the placeholders, which are filled from the
// sources: {p} a product name, {price} its price, {c} a product category, {b} the business
// name, {s} the subject (the product, the business or a generic word for the range), {a} the
// audience, {stage} a funnel stage, {metric} a metric, {h} a headline, {q} an objection,
// {fmt} a channel, {tone} a tone, {cats} categories and {f} a sentence copied from the
// sources. Every language's message has the placeholders of the English one (the tests).
//
// Templates put names where no grammatical ending has to be attached to them: a Turkish
// suffix depends on how a name is pronounced, and a German article on a gender no template can
// know. So Turkish templates put a name before a separate word ("{p} ile", "{b} markasının")
// and German ones after a colon.

// toneTexts are the customer-facing lines of one tone.
type toneTexts struct {
	headProduct []string // headlines featuring {p}
	headBrand   []string // headlines naming {b}
	headGeneric []string // headlines with no name at all
	open        []string // attention openers on {s}
	openAud     []string // attention openers on {s} for {a}
	desire      []string // desire lines, fact-free
	problem     []string // PAS problem on {c}
	problemNoC  []string // PAS problem without a category
	agitate     []string // PAS agitation
	solve       []string // PAS solution naming {s}
	benefit     []string // FAB benefit, fact-free
	// cta and ctaProduct are the calls to action per funnel stage, plain and with {p}.
	cta, ctaProduct map[string]string
	price           string // the price line: {p}, {price}
}

// texts are one language's texts.
type texts struct {
	tones map[string]*toneTexts

	productSubject  string // {s} for a product, from {p}
	genericSubject  string // {s} with neither product nor business name
	defaultAudience string // {a} when the request has none

	stageNames map[string]string
	toneNames  map[string]string // the tone as described to the marketer
	channels   map[string]string // channel names by key (social, email, ad, sms, landing, website, product_page, retargeting, reviews)
	chanNotes  map[string]string // notes per copy channel (social, email, ad, sms, landing)
	metrics    map[string]string // metric per stage, plus "email"

	// full
	positioning, positioningNoAud, positioningNoFacts    string
	segmentAudCat, segmentCat, segmentBrand, segmentNone string
	rationale                                            map[string]string // per framework: {stage}
	rationaleFacts, rationaleNoFacts, rationaleClaims    string
	angleProduct, angleBrand, angleNeed                  string
	topicNames                                           map[string]string // angle names of fact topics
	objections                                           map[string]string // per topic: value, risk, delivery, payment; "trust" with {b}
	trustNoName                                          string
	fallbackResponse                                     string
	hypothesisProduct, hypothesisBrand, hypothesisCTA    string

	// strategy
	sectionTitles                                    map[string]string
	marketCats, marketNoProducts, marketEmpty        string
	marketResearch                                   string
	personasSummary                                  string
	personas                                         [3]personaTexts
	personaCoreName                                  string
	positioningGuard                                 string
	messagingCore, messagingCTA, messagingTone       string
	funnelSummary                                    string
	objectives                                       map[string]string // per stage, {a}
	channelMixLead, channelMixDefault                string
	channelRoles                                     map[string]string // social, email, ad, website; ad with {c}
	channelRoleAdNoC                                 string
	contentSummary                                   string
	contentLaunch, contentFollow, contentProof       string
	contentOngoing                                   string
	measurementSummary                               string
	kpiNames, kpiDefinitions                         map[string]string // per stage
	kpiTarget                                        string
	roadmapSummary                                   string
	roadmap                                          []string // {fmt}
	experimentsSummary                               string
	budgetSummary                                    string
	budget                                           []string
	risksSummary                                     string
	riskClaims, riskExact, riskDelivery, riskReturns string
	riskFatigue, riskTone                            string
}

// personaTexts are one persona: name, profile, job (with and without {c}) and forces; Pull
// is used when no fact fits.
type personaTexts struct {
	name, profile, profileNoC, job, jobNoC string
	push, pull, anxiety, habit             string
}

// textsFor returns the texts of lg, English for a language it does not know.
func textsFor(lg string) *texts {
	if t, ok := allTexts[lg]; ok {
		return t
	}
	return allTexts["en"]
}

// toneFor returns the lines of a tone, professional for a tone it does not know.
func (t *texts) toneFor(tone string) *toneTexts {
	if tt, ok := t.tones[tone]; ok {
		return tt
	}
	return t.tones[store.ToneProfessional]
}

// fill replaces the {key} placeholders of tpl; kv holds key, value pairs.
func fill(tpl string, kv ...string) string {
	if len(kv) > 0 {
		pairs := make([]string, 0, len(kv))
		for i := 0; i+1 < len(kv); i += 2 {
			pairs = append(pairs, "{"+kv[i]+"}", kv[i+1])
		}
		tpl = strings.NewReplacer(pairs...).Replace(tpl)
	}
	return strings.TrimSpace(tpl)
}

// capFirst upper-cases the first letter of s, the Turkish way in Turkish (i becomes İ): a
// template may start with a placeholder whose value starts in lower case.
func capFirst(s, lg string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	if lg == "tr" {
		return string(unicode.TurkishCase.ToUpper(r)) + s[n:]
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// pick returns the item of list at seed, rotating.
func pick(list []string, seed uint32) string {
	if len(list) == 0 {
		return ""
	}
	return list[int(seed%uint32(len(list)))]
}
