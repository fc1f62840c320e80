package grounding

// A concept family is one claim a copywriter invents without a number — a discount, free
// shipping, a warranty, "#1" — with its words in the three languages. The words of a family
// are one concept across languages: an English "discount" is supported by a Turkish passage
// that says "indirim".
type conceptFamily struct {
	id      string
	kind    string   // KindDiscount or KindFeature
	phrases []phrase // any one of them states the concept
	not     []phrase // uses of the words that do not ("feel free", "for sale", "unser Angebot")
	implies []string // families a source stating this one also supports
	// yields names the families whose words this one does not claim: "free" in "free shipping"
	// is the shipping claim, so a source's free shipping does not support "free socks".
	yields []string
}

// Words are matched on the folded words of scanWords, not on the analyzer's stems: the
// Turkish stem is a five-letter prefix, which would make "indirin" (download) a discount and
// "organization" organic. A matcher is written as
//
//	word    the word exactly
//	word*   a word starting so (inflections, Turkish suffixes: "indirim*" is "indirimli")
//	*word*  a word containing it (German compounds: "*rabatt*" is "Sommerrabatt")
//	*word   a word ending so
//	-word   the word joined to the one before by a hyphen ("gluten-free")
//	#num    a number
//	@       a capitalised word (a place: "made in @")
//	!word   any word but this one
//
// and a phrase is matchers separated by spaces, in order and adjacent. "~N " before a phrase
// lets its words stand in any order with up to N other words between ("~2 free ship*" also
// finds "shipping is free"), within one clause: no punctuation or conjunction between them.
var conceptFamilies = []conceptFamily{
	{id: "discount", kind: KindDiscount,
		phrases: phrases("discount*", "sale", "#num off", "off regular", "off retail", "off list", "off original",
			"off all", "off everything", "off your", "off sitewide", "off storewide", "off selected", "off the price",
			"deal", "deals", "bargain*", "clearance", "markdown*", "half price", "price cut*", "price drop*",
			"reduced price*", "special offer*", "exclusive offer*", "limited offer*", "save up to", "promotion*",
			"promo", "promos", "~1 halb* preis*", "save big", "big savings", "huge savings", "~1 slash* price*",
			"everything must go", "kacirilmayacak*",
			"indirim*", "kampanya*", "firsat*", "yari fiyat*", "ozel fiyat*", "promosyon*", "ucuzluk*", "kelepir*",
			"*rabatt*", "~1 reduziert* preis*", "*preisreduz*", "*preisnachlass*", "nachlass*", "*sonderangebot*",
			"angebot*", "*angebotspreis*", "aktion*", "*aktionspreis*", "schnappchen*", "ausverkauf*",
			"*schlussverkauf*", "stark reduzi*", "jetzt reduzi*"),
		not: phrases("for sale", "point of sale", "deal with", "deals with", "deal of", "big deal", "*me firsat*", "*ma firsat*",
			"unser* angebot*", "ihr* angebot*", "euer* angebot*", "breit* angebot*", "gross* angebot*",
			"umfangreich* angebot*", "vielfaltig* angebot*", "gesamt* angebot*", "angebot* an", "angebot* umfasst")},
	{id: "coupon", kind: KindDiscount, implies: []string{"discount"},
		phrases: phrases("coupon*", "voucher*", "promo code*", "discount code*", "use code", "kupon*", "hediye ceki*",
			"indirim kod*", "promosyon kod*", "*gutschein*", "*rabattcode*", "*aktionscode*")},
	{id: "blackfriday", kind: KindDiscount, implies: []string{"discount"},
		phrases: phrases("black friday*", "blackfriday*", "black week*", "kara cuma*", "karacuma*", "efsane cuma*",
			"efsanecuma*")},
	{id: "cybermonday", kind: KindDiscount, implies: []string{"discount"},
		phrases: phrases("cyber monday*", "cybermonday*", "siber pazartesi*")},
	{id: "limitedtime", kind: KindDiscount,
		phrases: phrases("limited time", "limited offer*", "limited edition*", "today only", "only today",
			"while supplies last", "while stocks last", "ends soon", "ending soon", "last chance", "hurry",
			"~1 sinirli sure*", "sinirli sayi*", "stoklarla sinirli", "son gun", "son firsat*",
			"nur heute", "~2 begrenzt* zeit*", "zeitlich begrenzt*", "kurze zeit", "solange der vorrat*",
			"solange vorrat*", "limitiert*", "letzte chance", "left in stock", "only #num left", "acele*",
			"~1 stok* tuken*", "son #num urun*", "nur noch #num", "zuschlagen")},
	{id: "freegift", kind: KindDiscount,
		phrases: phrases("free gift*", "gift with purchase", "free bonus", "~2 ucretsiz* hediye*", "~2 bedava* hediye*",
			"hediyeli", "*gratisgeschenk*", "~2 gratis geschenk*", "~2 kostenlos* geschenk*", "gratis dazu")},
	{id: "bogo", kind: KindDiscount, implies: []string{"discount"},
		phrases: phrases("bogo", "~2 buy one get one*", "buy #num get #num", "two for one", "ikincisi bedava",
			"ucuncusu bedava", "~3 alana* bedava*")},
	{id: "freetrial", kind: KindDiscount,
		phrases: phrases("free trial*", "~2 try* free", "~2 ucretsiz* dene*", "~2 bedava* dene*", "~3 kostenlos* test*",
			"~3 kostenfrei* test*", "~3 gratis* test*")},
	{id: "free", kind: KindDiscount,
		phrases: phrases("free", "ucretsiz*", "bedava*", "kostenlos*", "kostenfrei*", "gratis*", "umsonst"),
		yields:  []string{"freegift", "bogo", "freetrial", "freeshipping", "freereturns", "installments"},
		not: phrases("feel free", "free from", "free of !charg*", "free to", "free time", "free your", "free up",
			"-free", "free-")},
	{id: "freeshipping", kind: KindFeature,
		phrases: phrases("~2 free ship*", "~2 free deliver*", "free postage", "~2 ucretsiz* kargo*",
			"~2 bedava* kargo*", "~2 ucretsiz* teslimat*", "~2 ucretsiz* gonderim*", "kargo dahil",
			"*versandkostenfrei*", "*versandfrei*", "portofrei", "~2 kostenlos* versand*", "~2 gratis versand*",
			"~2 kostenlos* liefer*", "~2 kostenfrei* versand*", "~2 kostenfrei* liefer*", "frei haus")},
	{id: "warranty", kind: KindFeature,
		phrases: phrases("warrant*", "guarant*", "garanti*", "*garantie*", "*garantiert*", "*gewahrleist*"),
		not: phrases("money back guarant*", "para iade* garanti*", "geld zuruck *garantie*",
			"*geldzuruckgarantie*")},
	{id: "returns", kind: KindFeature,
		phrases: phrases("returns", "return policy", "~1 easy return*", "money back", "refund*",
			"iade*", "degisim hakk*", "*ruckgab*", "*rueckgab*", "*rucksend*", "*ruecksend*", "umtausch*",
			"*umtauschrecht*", "*erstattung*", "geld zuruck", "*geldzuruck*", "widerruf*")},
	{id: "freereturns", kind: KindFeature, implies: []string{"returns"},
		phrases: phrases("~2 free return*", "~3 ucretsiz* iade*", "~3 bedava* iade*", "~2 kostenlos* *rucksend*",
			"~2 kostenlos* *ruecksend*", "~2 kostenlos* *ruckgab*", "~2 gratis* *rucksend*", "~2 kostenlos* umtausch*",
			"~2 kostenfrei* *rucksend*")},
	{id: "support247", kind: KindFeature,
		phrases: phrases("around the clock", "round the clock", "rund um die uhr", "gunun her saati",
			"kesintisiz destek*")},
	{id: "lifetime", kind: KindFeature,
		phrases: phrases("lifetime warrant*", "lifetime guarant*", "lifetime support", "lifetime access",
			"lifetime updat*", "lifetime servic*", "lifetime membership", "lifelong warrant*", "omur boyu",
			"omurluk", "lebenslang*", "*lebenszeit*")},
	{id: "organic", kind: KindFeature,
		phrases: phrases("organic*", "organik*", "bio", "biologisch*", "biobaum*", "bioqualitat*", "biolebens*"),
		// "link in bio" is a profile, "organic traffic" marketing's own jargon
		not: phrases("~2 link* bio", "organic traffic", "organic reach", "organic growth", "organic search",
			"organik trafik*", "organik erisim*", "organik buyume*")},
	{id: "vegan", kind: KindFeature, phrases: phrases("vegan*")},
	{id: "certified", kind: KindFeature,
		phrases: phrases("certif*", "sertifika*", "belgeli", "zertifi*", "*zertifiziert*", "*zertifikat*", "iso",
			"tuv", "tse", "gots", "oeko tex", "oekotex", "fsc", "fairtrade", "fair trade", "dermatolog*", "clinically", "klinisch*", "klinik olarak")},
	{id: "waterproof", kind: KindFeature, implies: []string{"waterresistant"},
		phrases: phrases("waterproof*", "water proof", "su gecirmez*", "wasserdicht*", "wasserfest*", "ipx*")},
	{id: "waterresistant", kind: KindFeature,
		phrases: phrases("water resist*", "water repell*", "suya dayanikli*", "su itici*", "wasserabweisend*",
			"wasserresistent*")},
	{id: "handmade", kind: KindFeature,
		phrases: phrases("handmade", "hand made", "handcraft*", "hand crafted", "el yapimi", "el emegi",
			"elde yapil*", "handgemacht*", "handgefertigt*", "handarbeit*")},
	{id: "bestseller", kind: KindFeature,
		phrases: phrases("bestsell*", "best sell*", "top sell*", "most popular", "en cok satan*", "cok satan*",
			"en cok tercih*", "en populer*", "meistverkauft*", "*bestseller*", "beliebteste*")},
	{id: "numberone", kind: KindFeature,
		phrases: phrases("number one", "marktfuhrer*", "market leader*", "~1 sektor* lider*",
			"pazar lider*", "lider marka*", "branchenfuhrer*", "industry leader*", "leading brand*")},
	{id: "bestprice", kind: KindFeature,
		phrases: phrases("lowest price*", "best price*", "unbeatable price*", "en uygun fiyat*", "en iyi fiyat*",
			"en ucuz*", "*tiefstpreis*", "*bestpreis*", "gunstigste*", "unschlagbar* preis*")},
	{id: "crowd", kind: KindFeature,
		phrases: phrases("thousands of", "millions of", "hundreds of", "binlerce", "yuzlerce", "milyonlarca",
			"tausende*", "hunderte*", "millionen")},
	{id: "origin", kind: KindFeature,
		phrases: phrases("made in @", "made in the @", "manufactured in @", "produced in @", "yerli uretim*", "turk mali",
			"~1 @ uretil*", "~1 @ uretim*", "hergestellt in @", "produziert in @", "gefertigt in @")},
	{id: "loyalty", kind: KindFeature,
		phrases: phrases("reward* program*", "loyalty", "earn points", "~1 puan* kazan*", "sadakat*", "*treuepunkt*",
			"*bonuspunkt*", "*bonusprogramm*", "*kundenkarte*")},
	{id: "installments", kind: KindFeature,
		phrases: phrases("installment*", "instalment*", "interest free", "taksit*", "vade farksiz", "*ratenzahlung*",
			"raten", "*finanzierung*")},
	{id: "giveaway", kind: KindDiscount,
		phrases: phrases("giveaway*", "sweepstake*", "cekilis*", "*gewinnspiel*", "verlosung*")},
	{id: "award", kind: KindFeature,
		phrases: phrases("award*", "odul*", "*preisgekront*", "auszeichnung*", "pramiert*", "*testsieger*")},
	{id: "eco", kind: KindFeature,
		phrases: phrases("eco", "eco friendly", "~1 environment* friendly", "sustainab*", "recycl*",
			"carbon neutral", "climate neutral", "cevre dost*", "cevreci", "surdurulebilir*", "geri donusum*",
			"geri donustur*", "karbon notr*", "umweltfreundlich*", "nachhaltig*", "recycel*", "*klimaneutral*",
			"okologisch*", "oko")},
	{id: "fastdelivery", kind: KindFeature,
		phrases: phrases("~1 same day deliver*", "~1 same day ship*", "~1 next day deliver*", "~1 next day ship*",
			"~2 ayni gun* kargo*", "~2 ayni gun* teslim*", "~2 ayni gun* gonder*", "~2 ertesi gun* kargo*",
			"~2 ertesi gun* teslim*", "~3 gleichen tag* versand*", "~3 selben tag* versand*",
			"~3 gleichen tag* liefer*", "~3 selben tag* liefer*", "~3 nachsten tag* liefer*", "~3 nachsten tag* versand*",
			"*expresslieferung*", "express deliver*", "express shipping", "ekspres kargo*")},
}

// familyKind returns the Claim kind of a family.
func familyKind(id string) string {
	for _, f := range conceptFamilies {
		if f.id == id {
			return f.kind
		}
	}
	return KindFeature
}

// concepts is the index of conceptFamilies' matchers; building it numbers them in place.
var concepts = indexMatchers(conceptFamilies)

// scanConcepts returns one fact per concept family the words state, quoting the first words
// that state it. A use listed under the family's not-phrases ("feel free") does not count, nor
// one inside the words of a family it yields to.
func scanConcepts(text string, ws []word) []fact {
	h := concepts.hits(ws)
	found := map[string][][2]int{}
	for _, fam := range conceptFamilies {
		var excluded []bool
		for _, p := range fam.not {
			for _, s := range p.spans(ws, h) {
				if excluded == nil {
					excluded = make([]bool, len(ws))
				}
				for k := s[0]; k < s[1]; k++ {
					excluded[k] = true
				}
			}
		}
		for _, p := range fam.phrases {
			for _, s := range p.spans(ws, h) {
				if !overlaps(excluded, s) {
					found[fam.id] = append(found[fam.id], s)
				}
			}
		}
	}
	var out []fact
	for _, fam := range conceptFamilies {
		for _, s := range found[fam.id] {
			if !yielded(s, fam.yields, found) {
				out = append(out, fact{kind: kindFamily, family: fam.id, text: text[ws[s[0]].start:ws[s[1]-1].end]})
				break
			}
		}
	}
	return out
}

// yielded reports whether span s lies within the match of one of the families.
func yielded(s [2]int, families []string, found map[string][][2]int) bool {
	for _, id := range families {
		for _, o := range found[id] {
			if s[0] < o[1] && o[0] < s[1] {
				return true
			}
		}
	}
	return false
}

// overlaps reports whether any word of span s is excluded.
func overlaps(excluded []bool, s [2]int) bool {
	if excluded == nil {
		return false
	}
	for k := s[0]; k < s[1]; k++ {
		if excluded[k] {
			return true
		}
	}
	return false
}

// impliedFamilies returns the families a source stating id also supports, id included.
func impliedFamilies(id string) []string {
	out := []string{id}
	for _, f := range conceptFamilies {
		if f.id == id {
			for _, i := range f.implies {
				out = append(out, impliedFamilies(i)...)
			}
		}
	}
	return out
}
