package marketing

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"svc/internal/grounding"
	"svc/internal/store"
)

// briefs per language: a product brief, a brand brief and a service brief, each with a format.
var composeCases = map[string][]Request{
	"en": {
		{Brief: "Promote our rain jacket for autumn hikes", Product: "Poyraz rain jacket", Audience: "Weekend hikers", Goal: "sales", Format: "social post"},
		{Brief: "Introduce our shop to new customers", Goal: "brand awareness", Format: "email"},
		{Brief: "Why buy from us: warranty and returns", Tone: "friendly", Format: "ad copy"},
		{Brief: "Remind past buyers of our repair service", Goal: "loyalty", Format: "sms"},
	},
	"tr": {
		{Brief: "Sonbahar yürüyüşleri için yağmurluğumuzu tanıtın", Product: "Poyraz yağmurluk", Audience: "Hafta sonu yürüyüşçüleri", Goal: "satış", Format: "sosyal medya gönderisi"},
		{Brief: "Mağazamızı yeni müşterilere tanıtın", Goal: "marka bilinirliği", Format: "e-posta"},
		{Brief: "Neden bizden almalısınız: garanti ve iade", Tone: "samimi", Format: "reklam metni"},
		{Brief: "Eski müşterilere onarım hizmetimizi hatırlatın", Goal: "sadakat", Format: "SMS"},
	},
	"de": {
		{Brief: "Bewerben Sie unsere Regenjacke für Herbstwanderungen", Product: "Poyraz Regenjacke", Audience: "Wochenendwanderer", Goal: "Verkauf", Format: "Social-Media-Beitrag"},
		{Brief: "Stellen Sie unseren Shop neuen Kunden vor", Goal: "Bekanntheit", Format: "E-Mail"},
		{Brief: "Warum bei uns kaufen: Garantie und Rückgabe", Tone: "energiegeladen", Format: "Anzeige"},
		{Brief: "Erinnern Sie frühere Käufer an unseren Reparaturservice", Goal: "Kundenbindung", Format: "SMS"},
	},
}

func TestComposeWellFormed(t *testing.T) {
	t.Parallel()
	for _, lg := range langs {
		src := demoSources(t, lg)
		for i, base := range composeCases[lg] {
			for _, depth := range []string{DepthLean, DepthFull, DepthStrategy} {
				variants := []int{3}
				if depth == DepthLean && i == 0 {
					variants = []int{1, 2, 3, 4, 5}
				} else if depth == DepthLean {
					variants = []int{i + 1}
				}
				for _, n := range variants {
					req := base
					req.Lang, req.Depth, req.Variants, req.Business = lg, depth, n, "Yolcu Outdoor"
					t.Run(fmt.Sprintf("%s/%d/%s/%d", lg, i, depth, n), func(t *testing.T) {
						checkContent(t, req, Compose(req, src))
					})
				}
			}
		}
	}
}

// checkContent checks what must hold of any content of req's depth.
func checkContent(t *testing.T, req Request, c Content) {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	if strings.Contains(string(b), "null") {
		t.Errorf("null in JSON: %s", b)
	}
	switch req.Depth {
	case DepthFull:
		checkFull(t, c)
	case DepthStrategy:
		checkStrategy(t, c)
	default:
		checkLean(t, req, c)
	}
}

func checkLean(t *testing.T, req Request, c Content) {
	t.Helper()
	l, ok := c.(*Lean)
	if !ok {
		t.Fatalf("content is %T, want *Lean", c)
	}
	if strings.TrimSpace(l.Headline) == "" || strings.TrimSpace(l.Body) == "" || strings.TrimSpace(l.CTA) == "" {
		t.Errorf("empty headline, body or cta: %+v", l)
	}
	want := req.Variants
	if want == 0 {
		want = 3
	}
	if len(l.Variants) != want {
		t.Errorf("%d variants, want %d: %q", len(l.Variants), want, l.Variants)
	}
	for _, v := range l.Variants {
		if strings.TrimSpace(v) == "" || v == l.Headline {
			t.Errorf("variant %q is empty or the headline", v)
		}
	}
	if len(slices.Compact(slices.Sorted(slices.Values(l.Variants)))) != len(l.Variants) {
		t.Errorf("repeated variants: %q", l.Variants)
	}
	if l.Hashtags == nil {
		t.Error("hashtags are nil")
	}
	for _, h := range l.Hashtags {
		if h == "" || strings.ContainsAny(h, "# \t") {
			t.Errorf("hashtag %q", h)
		}
	}
	if l.StrategyUsed == "" {
		t.Error("no strategy_used")
	}
}

func checkFull(t *testing.T, c Content) {
	t.Helper()
	f, ok := c.(*Full)
	if !ok {
		t.Fatalf("content is %T, want *Full", c)
	}
	for name, v := range map[string]string{"positioning": f.Positioning, "segment": f.Segment, "strategy_rationale": f.StrategyRationale,
		"hypothesis": f.NextExperiment.Hypothesis, "variant_a": f.NextExperiment.VariantA, "variant_b": f.NextExperiment.VariantB, "metric": f.NextExperiment.Metric} {
		if strings.TrimSpace(v) == "" {
			t.Errorf("empty %s", name)
		}
	}
	if f.NextExperiment.VariantA == f.NextExperiment.VariantB {
		t.Errorf("A/B variants are the same: %q", f.NextExperiment.VariantA)
	}
	if !slices.Contains(stages, f.FunnelStage) {
		t.Errorf("funnel_stage %q", f.FunnelStage)
	}
	if len(f.Angles) == 0 || len(f.Objections) == 0 || len(f.ChannelAdaptations) == 0 || len(f.ProofPoints) == 0 || len(f.Hashtags) == 0 {
		t.Errorf("an empty list: %d angles, %d objections, %d channels, %d proof points, %d hashtags",
			len(f.Angles), len(f.Objections), len(f.ChannelAdaptations), len(f.ProofPoints), len(f.Hashtags))
	}
	for _, a := range f.Angles {
		if a.Name == "" || a.Hook == "" || a.Message == "" {
			t.Errorf("angle %+v", a)
		}
	}
	for _, o := range f.Objections {
		if o.Objection == "" || o.Response == "" {
			t.Errorf("objection %+v", o)
		}
	}
	for _, ch := range f.ChannelAdaptations {
		if ch.Channel == "" || ch.Copy == "" || ch.Notes == "" {
			t.Errorf("channel %+v", ch)
		}
	}
	for _, pp := range f.ProofPoints {
		if pp.Claim == "" || pp.Source == "" {
			t.Errorf("proof point %+v", pp)
		}
	}
}

func checkStrategy(t *testing.T, c Content) {
	t.Helper()
	s, ok := c.(*Strategy)
	if !ok {
		t.Fatalf("content is %T, want *Strategy", c)
	}
	if len(s.Sections) != 12 {
		t.Fatalf("%d sections, want 12", len(s.Sections))
	}
	for i, sec := range s.Sections {
		if sec.Key != sectionKeys[i] {
			t.Errorf("section %d is %q, want %q", i, sec.Key, sectionKeys[i])
		}
		if strings.TrimSpace(sec.Title) == "" || strings.TrimSpace(sec.Summary) == "" {
			t.Errorf("section %q has no title or summary", sec.Key)
		}
		if sec.Points == nil {
			t.Errorf("section %q has nil points", sec.Key)
		}
		if (len(sec.Personas) > 0) != (sec.Key == SectionPersonas) || (len(sec.Stages) > 0) != (sec.Key == SectionFunnel) ||
			(len(sec.KPIs) > 0) != (sec.Key == SectionMeasurement) || (len(sec.Experiments) > 0) != (sec.Key == SectionExperiments) {
			t.Errorf("section %q carries the wrong lists: %d personas, %d stages, %d KPIs, %d experiments",
				sec.Key, len(sec.Personas), len(sec.Stages), len(sec.KPIs), len(sec.Experiments))
		}
		for _, p := range sec.Personas {
			if p.Name == "" || p.Profile == "" || p.Job == "" || p.Forces.Push == "" || p.Forces.Pull == "" || p.Forces.Anxiety == "" || p.Forces.Habit == "" {
				t.Errorf("persona %+v", p)
			}
		}
		if sec.Key == SectionFunnel {
			var got []string
			for _, st := range sec.Stages {
				got = append(got, st.Stage)
				if st.Objective == "" || st.Message == "" || len(st.Channels) == 0 {
					t.Errorf("stage %+v", st)
				}
			}
			if !slices.Equal(got, stages) {
				t.Errorf("stages %q, want %q", got, stages)
			}
		}
		for _, k := range sec.KPIs {
			if k.Name == "" || k.Definition == "" || k.Target == "" || !slices.Contains(stages, k.Stage) {
				t.Errorf("KPI %+v", k)
			}
			if regexp.MustCompile(`\d`).MatchString(k.Target) {
				t.Errorf("KPI target with a figure the sources do not give: %q", k.Target)
			}
		}
	}
}

// The featured product is named with its real price, at every depth.
func TestComposeFeaturesProductPrice(t *testing.T) {
	t.Parallel()
	for _, lg := range langs {
		src := demoSources(t, lg)
		want := demoProducts[lg]
		for _, depth := range []string{DepthLean, DepthFull, DepthStrategy} {
			for _, format := range []string{"", "social post", "email", "ad copy"} {
				req := Request{Brief: composeCases[lg][0].Brief, Product: want.query, Format: format, Lang: lg, Depth: depth, Business: "Yolcu Outdoor"}
				b, _ := json.Marshal(Compose(req, src))
				out := string(b)
				if !strings.Contains(out, want.price) || !strings.Contains(out, want.name) {
					t.Errorf("%s %s %q: no %q at %q in %s", lg, depth, format, want.name, want.price, out)
				}
				if depth == DepthLean {
					var l Lean
					_ = json.Unmarshal(b, &l)
					if !strings.Contains(l.Body, want.price) {
						t.Errorf("%s %q: the body has no price: %q", lg, format, l.Body)
					}
				}
			}
		}
	}
}

// A product the sources do not have is not featured, and its name does not appear.
func TestComposeIgnoresUnknownProduct(t *testing.T) {
	for _, lg := range langs {
		src := demoSources(t, lg)
		for _, depth := range []string{DepthLean, DepthFull, DepthStrategy} {
			req := Request{Brief: "Everest Ultra", Product: "Everest Ultra", Lang: lg, Depth: depth, Business: "Yolcu Outdoor"}
			b, _ := json.Marshal(Compose(req, src))
			if strings.Contains(string(b), "Everest") {
				t.Errorf("%s %s: unknown product in %s", lg, depth, b)
			}
		}
	}
}

var discountBriefs = map[string]string{
	"en": "announce our 50% Black Friday discount",
	"tr": "%50 Kara Cuma indirimi",
	"de": "50 % Black-Friday-Rabatt",
}

var (
	// fifty is the number 50 standing alone (not inside 1.500 or $250).
	fifty = regexp.MustCompile(`(^|[^\d.,])50([^\d]|$)`)
	// discountWord is a discount word or a percentage in any of the three languages.
	discountWord = regexp.MustCompile(`(?i)discount|\bsale\b|\boff\b|%|percent|black.?friday|indirim|kampanya|kara cuma|yüzde|rabatt|reduziert|prozent|sonderangebot`)
)

// A brief asking for a discount the sources do not state gets copy with neither the figure
// nor the discount, at every depth and in every format.
func TestComposeDiscountBriefStatesNoDiscount(t *testing.T) {
	t.Parallel()
	for _, lg := range langs {
		src := demoSources(t, lg)
		for _, depth := range []string{DepthLean, DepthFull, DepthStrategy} {
			for _, format := range []string{"", "social post", "email", "ad copy"} {
				req := Request{Brief: discountBriefs[lg], Format: format, Lang: lg, Depth: depth, Business: "Yolcu Outdoor", Variants: 5}
				c := Compose(req, src)
				checkContent(t, req, c)
				b, _ := json.Marshal(c)
				out := string(b)
				if m := fifty.FindString(out); m != "" {
					t.Errorf("%s %s %q: 50 in %s", lg, depth, format, out)
				}
				if m := discountWord.FindString(out); m != "" {
					t.Errorf("%s %s %q: discount word %q in %s", lg, depth, format, m, out)
				}
			}
		}
	}
}

// Without sources the copy is still complete, names the business, and states no fact: no
// figure at all.
func TestComposeEmptySources(t *testing.T) {
	digit := regexp.MustCompile(`\d`)
	for _, lg := range langs {
		for _, depth := range []string{DepthLean, DepthFull, DepthStrategy} {
			for _, brief := range []string{discountBriefs[lg], composeCases[lg][1].Brief} {
				req := Request{Brief: brief, Product: "Everest Ultra 3000", Audience: "students", Lang: lg, Depth: depth, Business: "Moda Atölye", Variants: 4, Format: "social"}
				c := Compose(req, grounding.Sources{Business: "Moda Atölye"})
				if depth == DepthFull {
					// Without facts there are no proof points; everything else is there.
					f := c.(*Full)
					if len(f.ProofPoints) != 0 {
						t.Errorf("%s: proof points without sources: %+v", lg, f.ProofPoints)
					}
					f.ProofPoints = []ProofPoint{{Claim: "x", Source: "x"}}
				}
				checkContent(t, req, c)
				b, _ := json.Marshal(c)
				out := string(b)
				if !strings.Contains(out, "Moda Atölye") {
					t.Errorf("%s %s: business not named: %s", lg, depth, out)
				}
				if digit.MatchString(strings.ReplaceAll(out, "A/B", "")) || strings.Contains(out, "Everest") || discountWord.MatchString(out) {
					t.Errorf("%s %s: a fact without sources: %s", lg, depth, out)
				}
			}
		}
	}
}

// The free tone picks the closest preset; the account's preset applies without one.
func TestComposeTone(t *testing.T) {
	src := demoSources(t, "en")
	for _, tc := range []struct {
		tone, preset, want string
	}{
		{"friendly and warm", "", store.ToneWarm},
		{"fun, bold", store.ToneProfessional, store.ToneEnergetic},
		{"formal", store.ToneEnergetic, store.ToneProfessional},
		{"", store.ToneWarm, store.ToneWarm},
		{"", "", store.ToneProfessional},
		{"sachlich", "", store.ToneProfessional},
		{"samimi", "", store.ToneWarm},
	} {
		req := Request{Brief: "Promote the rain jacket", Product: "Poyraz Rain Jacket", Tone: tc.tone, TonePreset: tc.preset, Lang: "en", Business: "Yolcu Outdoor"}
		if got := toneOf(req); got != tc.want {
			t.Errorf("tone %q preset %q: %s, want %s", tc.tone, tc.preset, got, tc.want)
		}
		l := Compose(req, src).(*Lean)
		var heads []string
		for _, h := range textsFor("en").tones[tc.want].headProduct {
			heads = append(heads, fill(h, "p", "Poyraz Rain Jacket"))
		}
		if !slices.Contains(heads, l.Headline) {
			t.Errorf("tone %s: headline %q is not one of its own", tc.want, l.Headline)
		}
	}
}

// Formats shape the copy: an e-mail and a text message have no hashtags, a social post has
// them, and an ad's body is at most two sentences.
func TestComposeFormat(t *testing.T) {
	for _, lg := range langs {
		src := demoSources(t, lg)
		for _, tc := range []struct {
			format   string
			hashtags bool
			max      int
		}{
			{"social post", true, 3},
			{"newsletter email", false, 4},
			{"Google ad", true, 2},
			{"SMS", false, 2},
		} {
			req := Request{Brief: composeCases[lg][2].Brief, Format: tc.format, Lang: lg, Business: "Yolcu Outdoor"}
			l := Compose(req, src).(*Lean)
			if (len(l.Hashtags) > 0) != tc.hashtags {
				t.Errorf("%s %q: hashtags %q", lg, tc.format, l.Hashtags)
			}
			if n := sentenceCount(l.Body, lg); n > tc.max || n == 0 {
				t.Errorf("%s %q: %d sentences, at most %d: %q", lg, tc.format, n, tc.max, l.Body)
			}
		}
	}
}

func sentenceCount(text, lg string) int {
	n := 0
	for _, line := range strings.Split(text, "\n") {
		n += len(splitLine(line, lg))
	}
	return n
}

// Facts are woven in word for word: every sentence of a lean body is a template line or a
// sentence of the sources.
func TestComposeWeavesFacts(t *testing.T) {
	for _, lg := range langs {
		src := demoSources(t, lg)
		req := Request{Brief: composeCases[lg][2].Brief, Format: "landing page", Lang: lg, Business: "Yolcu Outdoor"}
		l := Compose(req, src).(*Lean)
		found := 0
		for _, s := range splitLine(l.Body, lg) {
			for _, ps := range src.Passages {
				if strings.Contains(ps.Text, s) {
					found++
					break
				}
			}
		}
		if found == 0 {
			t.Errorf("%s: no fact of the sources in %q", lg, l.Body)
		}
	}
}

func TestCamelTag(t *testing.T) {
	for in, want := range map[string]string{
		"Sırt Çantası":                       "SirtCantasi",
		"Yolcu Outdoor":                      "YolcuOutdoor",
		"Toros Carbon Trekking Poles (pair)": "TorosCarbonTrekkingPolesPair",
		"Rucksäcke":                          "Rucksacke",
		"Größe & Passform":                   "GrossePassform",
		"2026":                               "",
		"—":                                  "",
	} {
		if got := camelTag(in); got != want {
			t.Errorf("camelTag(%q) = %q, want %q", in, got, want)
		}
	}
}

// The built-in composer's own output passes the guard untouched: its templates state no fact,
// and what it copies from the sources is supported by them.
func TestComposeBuiltinPassesGuard(t *testing.T) {
	t.Parallel()
	for _, lg := range langs {
		full := demoSources(t, lg)
		for name, src := range map[string]grounding.Sources{"demo": full, "products": onlyProducts(full), "empty": {Business: "Yolcu Outdoor"}} {
			for i, base := range append(composeCases[lg], Request{Brief: discountBriefs[lg], Format: "email"}) {
				if name != "demo" && i%2 == 1 {
					continue
				}
				for _, depth := range []string{DepthLean, DepthFull, DepthStrategy} {
					for _, tone := range tonePresets {
						if depth != DepthLean && tone != store.ToneWarm {
							continue // the deeper texts differ by tone only in the copy they reuse
						}
						req := base
						req.Lang, req.Depth, req.Business, req.Variants, req.TonePreset, req.Tone = lg, depth, "Yolcu Outdoor", 5, tone, ""
						p := newPlan(req, src)
						if claims := guardWith(p, build(p)); len(claims) > 0 {
							t.Errorf("%s %s case %d %s %s: the guard removed %+v", lg, name, i, depth, tone, claims)
						}
					}
				}
			}
		}
	}
}

// A plan or service the business sells without a product card is featured by the name its
// pages use, without a price.
func TestComposeFeaturesNamedPlan(t *testing.T) {
	src := grounding.Sources{Business: "Ledgerly", Passages: []grounding.Passage{
		{Type: store.DocPage, Title: "Pricing", URL: "https://ledgerly.example/pricing", Lang: "en",
			Text: "Every Ledgerly account starts on the Starter plan.\nThe Team plan adds shared ledgers and role-based access for up to ten people.\nAll plans include bank-grade encryption and daily backups."},
	}}
	req := Request{Brief: "Get small agencies to upgrade", Product: "team plan", Goal: "sign-ups", Lang: "en", Business: "Ledgerly", Format: "email"}
	l := Compose(req, src).(*Lean)
	checkLean(t, req, l)
	if !strings.Contains(l.Headline+l.Body+l.CTA, "Team plan") || !strings.Contains(l.Body, "The Team plan adds shared ledgers") {
		t.Errorf("the plan is not featured: %+v", l)
	}
}

// Sources in several languages: the copy uses only those in the request's language.
func TestComposeKeepsToTheLanguage(t *testing.T) {
	all := grounding.Sources{Business: "Yolcu Outdoor", ProductText: map[string]string{}}
	for _, lg := range langs {
		s := demoSources(t, lg)
		all.Passages = append(all.Passages, s.Passages...)
		all.Products = append(all.Products, s.Products...)
		for k, v := range s.ProductText {
			all.ProductText[k] = v
		}
	}
	others := map[string][]string{"tr": {"$94.00", "89,90 €", "Rucksack", "Backpack"}, "en": {"2.749,00 TL", "89,90 €", "Sırt Çantası", "Rucksack"}, "de": {"$94.00", "2.749,00 TL", "Backpack", "Sırt Çantası"}}
	for _, lg := range langs {
		for _, depth := range []string{DepthLean, DepthStrategy} {
			req := Request{Brief: composeCases[lg][0].Brief, Product: demoProducts[lg].query, Lang: lg, Depth: depth, Business: "Yolcu Outdoor"}
			b, _ := json.Marshal(Compose(req, all))
			out := string(b)
			if !strings.Contains(out, demoProducts[lg].price) {
				t.Errorf("%s %s: no %s in %s", lg, depth, demoProducts[lg].price, out)
			}
			for _, o := range others[lg] {
				if strings.Contains(out, o) {
					t.Errorf("%s %s: %q from another language in %s", lg, depth, o, out)
				}
			}
		}
	}
}
