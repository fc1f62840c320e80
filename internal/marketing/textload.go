package marketing

import (
	"errors"
	"fmt"
	"strings"

	"svc/internal/i18n"
	"svc/internal/store"
)

// The built-in composer's texts (texts.go) live in the i18n catalog under "marketing.*", with
// the engine's reply texts and every other user-facing text: they are sentences with
// placeholders written for a reader, not words code matches, so a translator edits them where
// the other texts are and the catalog's tests prove each language has every key. visit names
// each text's key once, for the loader and for the tests.

// textPrefix starts every catalog key of the composer's texts.
const textPrefix = "marketing."

// composerTones are the tones the composer has copy for; toneFor falls back to the first.
var composerTones = []string{store.ToneProfessional, store.ToneWarm, store.ToneEnergetic}

// allTexts are the texts of every catalog language, read when the package is initialized.
// The catalog is embedded and the tests prove every key is there, so a failure here is a
// build defect, not a runtime condition.
var allTexts = mustLoadTexts(i18n.MustLoad())

func mustLoadTexts(c *i18n.Catalog) map[string]*texts {
	all, err := loadTexts(c)
	if err != nil {
		panic(err)
	}
	return all
}

// loadTexts reads the texts of every language of c. Every text the composer uses must be
// there, and every "marketing.*" key must be one it uses, so a misspelt key fails here rather
// than leaving a blank in the copy.
func loadTexts(c *i18n.Catalog) (map[string]*texts, error) {
	all := make(map[string]*texts, len(i18n.Langs))
	var errs []error
	for _, lg := range i18n.Langs {
		var keys []string
		for _, k := range c.Keys(lg) {
			if strings.HasPrefix(k, textPrefix) {
				keys = append(keys, k)
			}
		}
		used := make(map[string]bool, len(keys))
		miss := func(key string) { errs = append(errs, fmt.Errorf("marketing: text %q missing in %s", key, lg)) }
		t := newTexts()
		t.visit(func(key string, to any) {
			switch to := to.(type) {
			case *string:
				if m, ok := c.Raw(lg, key); ok && m != "" {
					*to, used[key] = m, true
					return
				}
			case *[]string:
				for n := 1; ; n++ {
					k := fmt.Sprintf("%s.%d", key, n)
					m, ok := c.Raw(lg, k)
					if !ok || m == "" {
						break
					}
					*to, used[k] = append(*to, m), true
				}
				if len(*to) > 0 {
					return
				}
			case *map[string]string:
				// A map's entries are the keys one level below key: "marketing.metric.email".
				*to = make(map[string]string)
				for _, k := range keys {
					sub, ok := strings.CutPrefix(k, key+".")
					if !ok || strings.Contains(sub, ".") {
						continue
					}
					m, _ := c.Raw(lg, k)
					(*to)[sub], used[k] = m, true
				}
				if len(*to) > 0 {
					return
				}
			default:
				panic(fmt.Sprintf("marketing: text %q of type %T", key, to))
			}
			miss(key)
		})
		for _, k := range keys {
			if !used[k] {
				errs = append(errs, fmt.Errorf("marketing: catalog key %q (%s) is no text of the composer", k, lg))
			}
		}
		all[lg] = t
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return all, nil
}

// newTexts returns empty texts with a toneTexts for every tone, for visit to fill.
func newTexts() *texts {
	t := &texts{tones: make(map[string]*toneTexts, len(composerTones))}
	for _, tone := range composerTones {
		t.tones[tone] = &toneTexts{}
	}
	return t
}

// visit calls f with the catalog key and the address of each text of t: a *string for one
// message, a *[]string for the numbered messages key.1, key.2, …, a *map[string]string for
// the messages key.<name>. t's tones must exist (newTexts).
func (t *texts) visit(f func(key string, to any)) {
	for _, tone := range composerTones {
		tt, k := t.tones[tone], textPrefix+"copy."+tone+"."
		f(k+"head_product", &tt.headProduct)
		f(k+"head_brand", &tt.headBrand)
		f(k+"head_generic", &tt.headGeneric)
		f(k+"open", &tt.open)
		f(k+"open_audience", &tt.openAud)
		f(k+"desire", &tt.desire)
		f(k+"problem", &tt.problem)
		f(k+"problem_no_category", &tt.problemNoC)
		f(k+"agitate", &tt.agitate)
		f(k+"solve", &tt.solve)
		f(k+"benefit", &tt.benefit)
		f(k+"cta", &tt.cta)
		f(k+"cta_product", &tt.ctaProduct)
		f(k+"price", &tt.price)
	}

	k := textPrefix
	f(k+"subject.product", &t.productSubject)
	f(k+"subject.generic", &t.genericSubject)
	f(k+"default_audience", &t.defaultAudience)
	f(k+"stage", &t.stageNames)
	f(k+"tone", &t.toneNames)
	f(k+"channel", &t.channels)
	f(k+"channel_note", &t.chanNotes)
	f(k+"metric", &t.metrics)

	k = textPrefix + "plan."
	f(k+"positioning", &t.positioning)
	f(k+"positioning_no_audience", &t.positioningNoAud)
	f(k+"positioning_no_facts", &t.positioningNoFacts)
	f(k+"segment.audience_category", &t.segmentAudCat)
	f(k+"segment.category", &t.segmentCat)
	f(k+"segment.brand", &t.segmentBrand)
	f(k+"segment.none", &t.segmentNone)
	f(k+"rationale", &t.rationale)
	f(k+"rationale_facts", &t.rationaleFacts)
	f(k+"rationale_no_facts", &t.rationaleNoFacts)
	f(k+"rationale_claims", &t.rationaleClaims)
	f(k+"angle.product", &t.angleProduct)
	f(k+"angle.brand", &t.angleBrand)
	f(k+"angle.need", &t.angleNeed)
	f(k+"topic", &t.topicNames)
	f(k+"objection", &t.objections)
	f(k+"objection_trust_no_name", &t.trustNoName)
	f(k+"fallback_response", &t.fallbackResponse)
	f(k+"hypothesis.product", &t.hypothesisProduct)
	f(k+"hypothesis.brand", &t.hypothesisBrand)
	f(k+"hypothesis.cta", &t.hypothesisCTA)

	k = textPrefix + "strategy."
	f(k+"section", &t.sectionTitles)
	f(k+"market.categories", &t.marketCats)
	f(k+"market.no_products", &t.marketNoProducts)
	f(k+"market.empty", &t.marketEmpty)
	f(k+"market.research", &t.marketResearch)
	f(k+"personas_summary", &t.personasSummary)
	for i := range t.personas {
		p, pk := &t.personas[i], fmt.Sprintf("%spersona.%d.", k, i+1)
		if i == 0 {
			// The first persona is the core buyer, named by the brief's audience when it has
			// one: its name is personaCoreName, and personas[0].name stays empty.
			f(pk+"name", &t.personaCoreName)
		} else {
			f(pk+"name", &p.name)
		}
		f(pk+"profile", &p.profile)
		f(pk+"profile_no_category", &p.profileNoC)
		f(pk+"job", &p.job)
		f(pk+"job_no_category", &p.jobNoC)
		f(pk+"push", &p.push)
		f(pk+"pull", &p.pull)
		f(pk+"anxiety", &p.anxiety)
		f(pk+"habit", &p.habit)
	}
	f(k+"positioning_guard", &t.positioningGuard)
	f(k+"messaging.core", &t.messagingCore)
	f(k+"messaging.cta", &t.messagingCTA)
	f(k+"messaging.tone", &t.messagingTone)
	f(k+"funnel_summary", &t.funnelSummary)
	f(k+"objective", &t.objectives)
	f(k+"channel_mix.lead", &t.channelMixLead)
	f(k+"channel_mix.default", &t.channelMixDefault)
	f(k+"channel_role", &t.channelRoles)
	f(k+"channel_role_ad_no_category", &t.channelRoleAdNoC)
	f(k+"content.summary", &t.contentSummary)
	f(k+"content.launch", &t.contentLaunch)
	f(k+"content.follow", &t.contentFollow)
	f(k+"content.proof", &t.contentProof)
	f(k+"content.ongoing", &t.contentOngoing)
	f(k+"measurement_summary", &t.measurementSummary)
	f(k+"kpi_name", &t.kpiNames)
	f(k+"kpi_definition", &t.kpiDefinitions)
	f(k+"kpi_target", &t.kpiTarget)
	f(k+"roadmap_summary", &t.roadmapSummary)
	f(k+"roadmap", &t.roadmap)
	f(k+"experiments_summary", &t.experimentsSummary)
	f(k+"budget_summary", &t.budgetSummary)
	f(k+"budget", &t.budget)
	f(k+"risks_summary", &t.risksSummary)
	f(k+"risk.claims", &t.riskClaims)
	f(k+"risk.exact", &t.riskExact)
	f(k+"risk.delivery", &t.riskDelivery)
	f(k+"risk.returns", &t.riskReturns)
	f(k+"risk.fatigue", &t.riskFatigue)
	f(k+"risk.tone", &t.riskTone)
}
