package lexicon

// The lists the code reads. Each has a data file per language in data/<lang>/<name>.txt, or
// one shared file in data/all/<name>.txt; Load fails on a file not declared here and on a
// declared list with a file missing.
var (
	LanguageNames = List{Name: "language_names", Shared: true, Kind: Table,
		For: "the English name of each reply language, for prompts to a language model"}
	ProductLineWords = List{Name: "product_line_words", Shared: true, Kind: Words, Flags: ASCII,
		For: "words product lines tell siblings apart with (Pro, Max, Lite); grounding and variant"}
	ProductSeriesWords = List{Name: "product_series_words", Shared: true, Kind: Words, Flags: ASCII,
		For: "words that name a product family (Series, Serisi); grounding reads them as line words"}
	NumberWords = List{Name: "number_words", Kind: Table, Flags: Numeric,
		For: "numbers written as words, with their value; grounding's fact scanner and the engine's question types"}
	ArticleNumbers = List{Name: "article_numbers", Kind: Words,
		For: "number words that are also articles (one, bir, ein): not a number on their own"}
	SmalltalkGreetings = List{Name: "smalltalk_greetings", Kind: Phrases,
		For: "greetings a small-talk message may consist of"}
	SmalltalkGreetingsShared = List{Name: "smalltalk_greetings_shared", Shared: true, Kind: Phrases,
		For: "greetings used alike in several languages (hi, hey)"}
	SmalltalkThanks = List{Name: "smalltalk_thanks", Kind: Phrases,
		For: "thanks and acknowledgements a small-talk message may consist of"}
	SmalltalkThanksShared = List{Name: "smalltalk_thanks_shared", Shared: true, Kind: Phrases,
		For: "acknowledgements used alike in several languages (ok, super)"}
	SmalltalkGoodbyes = List{Name: "smalltalk_goodbyes", Kind: Phrases,
		For: "goodbyes a small-talk message may consist of"}
	SmalltalkGoodbyesShared = List{Name: "smalltalk_goodbyes_shared", Shared: true, Kind: Phrases,
		For: "goodbyes used alike in several languages (ciao)"}
	SmalltalkFillers = List{Name: "smalltalk_fillers", Kind: Phrases,
		For: "words that dress up small talk without being small talk (there, zusammen, herkese)"}
	SmalltalkFillersShared = List{Name: "smalltalk_fillers_shared", Shared: true, Kind: Phrases,
		For: "fillers used alike in several languages (hm, ah)"}
	SmalltalkReplies = List{Name: "smalltalk_replies", Kind: Table,
		For: "the local reply to small talk, keyed kind.tone"}
	AmountUnits = List{Name: "amount_units", Shared: true, Kind: Words, Flags: ASCII,
		For: "units that follow a number to make a variant's amount (gb, ml); variant"}
	ClothingSizes = List{Name: "clothing_sizes", Shared: true, Kind: Words, Flags: ASCII,
		For: "clothing sizes (xs … xxxl); variant"}
	ColourWords = List{Name: "colour_words", Shared: true, Kind: Groups, Flags: ASCII,
		For: "colour words of the three languages, one colour per line; variant"}
	ColourEndings = List{Name: "colour_endings", Shared: true, Kind: Words, Flags: ASCII | AllowEmpty,
		For: "inflections a colour word may carry (roten, maviyi); variant"}
	BrandFollowers = List{Name: "brand_followers", Shared: true, Kind: Words, Flags: ASCII,
		For: "word beginnings that follow a brand without naming a product (team, mağaza); grounding"}
	Conjunctions = List{Name: "conjunctions", Kind: Words,
		For: "conjunctions that end a grounding phrase's window; grounding"}
	CurrencyWords = List{Name: "currency_words", Shared: true, Kind: Table,
		For: "ways of writing a currency and its code (tl = TRY); grounding"}
	MultiplierAbbreviations = List{Name: "multiplier_abbreviations", Shared: true, Kind: Table, Flags: ASCII | Numeric,
		For: "abbreviations that scale the number before them (10k, 2 Mio.); grounding"}
	PercentWords = List{Name: "percent_words", Shared: true, Kind: Words, Flags: ASCII,
		For: "words that make the number before them a percentage; grounding"}
	UnitModifiers = List{Name: "unit_modifiers", Shared: true, Kind: Words, Flags: ASCII,
		For: "words between a number and its unit (5 business days); grounding"}
	IntelConceptWords = List{Name: "intel_concept_words", Kind: Table,
		For: "the words of each field or subject intel reads (price, delivery, warranty)"}
	BackReferenceWords = List{Name: "back_reference_words", Kind: Words,
		For: "words that start a sentence referring back to the one before; intel"}
	Stopwords = List{Name: "stopwords", Kind: Words,
		For: "function and question words retrieval leaves out; textindex (folded there)"}
	AbilityEndings = List{Name: "ability_endings", Only: "tr", Kind: Words,
		For: "endings after the Turkish ability suffix (yapabilir); textindex"}
	NegativeAbilityEndings = List{Name: "negative_ability_endings", Only: "tr", Kind: Words,
		For: "negative ability forms (yapamaz, ödeyemem); textindex"}
	LightVerbRoots = List{Name: "light_verb_roots", Only: "tr", Kind: Words,
		For: "Turkish light verb roots kept whole (yap, eyle); textindex"}
	CompoundLinkSuffixes = List{Name: "compound_link_suffixes", Only: "de", Kind: Words,
		For: "suffixes before a German compound's linking s (Sicherheits|hinweis); textindex"}
	VerbPrefixes = List{Name: "verb_prefixes", Only: "de", Kind: Words, Flags: ASCII,
		For: "German verb prefixes for near matches (bezahlen, zahlen); textindex"}
	DetectWords = List{Name: "detect_words", Kind: Words, Flags: ASCII,
		For: "frequent function and shop words, the strongest word evidence of language detection; lang"}
	DetectStems = List{Name: "detect_stems", Kind: Words, Flags: ASCII,
		For: "word beginnings typical of a language (sipari, bestell); lang"}
	DetectSuffixes = List{Name: "detect_suffixes", Kind: Words, Flags: ASCII,
		For: "word endings typical of a language (-iyor, -ung, -tion); lang"}
	DetectPatterns = List{Name: "detect_patterns", Kind: Words, Flags: ASCII,
		For: "letter sequences typical of a language (sch, th); lang"}
	CountryNames = List{Name: "country_names", Kind: Table,
		For: "each country of country_cities by ISO code, named as one analyzed term; engine"}
	CountryCities = List{Name: "country_cities", Shared: true, Kind: Table,
		For: "the larger cities of each country in every spelling; engine reads a city as its country"}
	QuestionTypePhrases = List{Name: "question_type_phrases", Kind: Table, Flags: ASCII,
		For: "question-word phrases and the answer type they ask for (what year = date); engine"}
	TimeUnits = List{Name: "time_units", Kind: Words,
		For: "units of time, * for a prefix; engine reads a duration answer by them"}
	DurationNouns = List{Name: "duration_nouns", Kind: Words,
		For: "nouns that only name a length of time (time, Zeit, süre); engine drops them from a question asking how long"}
	DayWords = List{Name: "day_words", Kind: Words,
		For: "weekdays and schedule words; engine reads a date answer by them"}
	MonthWords = List{Name: "month_words", Kind: Words,
		For: "month names; engine reads a date answer by them"}
	ConditionalWords = List{Name: "conditional_words", Kind: Words,
		For: "words that open a condition (if, wenn, eğer); engine"}
	AnaphorWords = List{Name: "anaphor_words", Kind: Words,
		For: "words that open a sentence referring back (it, dies, bu); engine"}
	Abbreviations = List{Name: "abbreviations", Kind: Words,
		For: "abbreviations whose period does not end a sentence (bzw, vb); engine"}
	AbbreviationsShared = List{Name: "abbreviations_shared", Shared: true, Kind: Words,
		For: "abbreviations every language uses (dr, etc, nr); engine"}
	WeakQuestionWords = List{Name: "weak_question_words", Kind: Words,
		For: "question words an answer need not repeat (take, dauert, yapılır); engine ranking"}
	CountryAbbreviations = List{Name: "country_abbreviations", Kind: Table, Flags: Cased,
		For: "upper-case country abbreviations and the words that spell them out; engine"}
	IntentCues = List{Name: "intent_cues", Kind: Table, Flags: Cased,
		For: "ways of asking about products and the intent they show; engine Sales Mode"}
	SubjectNoise = List{Name: "subject_noise", Kind: Words, Flags: Cased,
		For: "words that only say product or a currency; engine leaves them out of a product subject"}
	NotSuperlatives = List{Name: "not_superlatives", Only: "en", Kind: Words,
		For: "English words in -est that compare nothing (request); engine"}
	ConversationLabels = List{Name: "conversation_labels", Kind: Table,
		For: "how a conversation summary names its two sides; engine"}
	UnitWords = List{Name: "unit_words", Kind: Table,
		For: "units of one language after a number, form = base scale (gün* = s 86400); grounding"}
	UnitWordsShared = List{Name: "unit_words_shared", Shared: true, Kind: Table,
		For: "units written alike in every language (kg = g 1000); grounding"}
	QuestionStarts = List{Name: "question_starts", Kind: Words, Flags: Sparse,
		For: "words that open a question; chat offers a heading that starts with one as a starter question"}
	TurkishQuestionWords = List{Name: "turkish_question_words", Only: "tr", Kind: Words,
		For: "question words and particles that mark a Turkish question anywhere; chat"}
	LeadPriceWords = List{Name: "lead_price_words", Kind: Words, Flags: ASCII,
		For: "words that make a question one about money (cost, preis*, fiyat*); engine lead-in"}
	LeadPriceStarts = List{Name: "lead_price_starts", Kind: Phrases, Flags: ASCII | Sparse,
		For: "openings that make a how-much question one about money (how much is); engine lead-in"}
	LeadDurationWords = List{Name: "lead_duration_words", Kind: Words, Flags: ASCII,
		For: "words that ask how long something takes (duration, lieferzeit*); engine lead-in"}
	LeadHourWords = List{Name: "lead_hour_words", Kind: Words, Flags: ASCII,
		For: "words that ask when something is open (hours, geoffnet, acik); engine lead-in"}
	LeadHowToStarts = List{Name: "lead_how_to_starts", Kind: Phrases, Flags: ASCII | Sparse,
		For: "openings of a question that asks how to do something (how do, wie); engine lead-in"}
	LeadHowToWords = List{Name: "lead_how_to_words", Kind: Words, Flags: ASCII | Sparse,
		For: "words that make a question one of how to do something wherever they stand (nasil); engine lead-in"}
	LeadDefinitionStarts = List{Name: "lead_definition_starts", Kind: Phrases, Flags: ASCII | Sparse,
		For: "openings of a question that asks what something is (what is, was bedeutet); engine lead-in"}
	LeadDefinitionWords = List{Name: "lead_definition_words", Kind: Words, Flags: ASCII | Sparse,
		For: "words that make a question one of what something is wherever they stand (nedir); engine lead-in"}
	QuestionWords = List{Name: "question_words", Kind: Words, Flags: ASCII,
		For: "question words, folded (what, warum, nasil): a question with one is no yes/no question; engine lead-in"}
	YesNoStarts = List{Name: "yes_no_starts", Kind: Words, Flags: ASCII | Sparse,
		For: "verbs that open a yes/no question (can, kann); engine lead-in"}
	YesNoPronouns = List{Name: "yes_no_pronouns", Only: "de", Kind: Words, Flags: ASCII,
		For: "pronouns after the verb that opens a German yes/no question (Liefern Sie); engine lead-in"}
	QuestionParticleEndings = List{Name: "question_particle_endings", Only: "tr", Kind: Words, Flags: ASCII | AllowEmpty,
		For: "endings of the Turkish question particle, folded (misiniz, midir); engine lead-in"}
	VerdictWords = List{Name: "verdict_words", Kind: Words,
		For: "the words for yes and no a quote may open with (nein, evet); engine lead-in"}
	ConceptPhrases = List{Name: "concept_phrases", Shared: true, Kind: Sections, Flags: ASCII,
		For: "phrases of grounding's concept families (discount, free shipping), [id] and [id.not]"}
	MarketingKeywords = List{Name: "marketing_keywords", Shared: true, Kind: Sections, Flags: ASCII,
		For: "marketing's keyword lists (offer, channels, funnel stages, tones, fact topics), one section each"}
	MarketingStageAliases = List{Name: "marketing_stage_aliases", Shared: true, Kind: Table, Flags: ASCII,
		For: "words a model may use for a funnel stage (tofu = awareness); marketing's parser"}
	MarketingSectionAliases = List{Name: "marketing_section_aliases", Shared: true, Kind: Table, Flags: ASCII,
		For: "section titles and synonyms a model may write (kpis = measurement); marketing's parser"}
	MarketingBriefNoise = List{Name: "marketing_brief_noise", Shared: true, Kind: Words,
		For: "words of a brief that say what to do, not what about (announce, kampanya); marketing"}
)

// registry is every list, for Load's checks.
var registry = []List{
	LanguageNames,
	ProductLineWords,
	ProductSeriesWords,
	NumberWords,
	ArticleNumbers,
	SmalltalkGreetings, SmalltalkGreetingsShared,
	SmalltalkThanks, SmalltalkThanksShared,
	SmalltalkGoodbyes, SmalltalkGoodbyesShared,
	SmalltalkFillers, SmalltalkFillersShared,
	SmalltalkReplies,
	AmountUnits, ClothingSizes, ColourWords, ColourEndings,
	CountryNames, CountryCities,
	QuestionTypePhrases, TimeUnits, DurationNouns, DayWords, MonthWords, ConditionalWords, AnaphorWords,
	Abbreviations, AbbreviationsShared, WeakQuestionWords, CountryAbbreviations,
	IntentCues, SubjectNoise, NotSuperlatives, ConversationLabels,
	LeadPriceWords, LeadPriceStarts, LeadDurationWords, LeadHourWords, LeadHowToStarts, LeadHowToWords,
	LeadDefinitionStarts, LeadDefinitionWords, QuestionWords, YesNoStarts, YesNoPronouns,
	QuestionParticleEndings, VerdictWords,
	DetectWords, DetectStems, DetectSuffixes, DetectPatterns,
	Stopwords, AbilityEndings, NegativeAbilityEndings, LightVerbRoots, CompoundLinkSuffixes, VerbPrefixes,
	IntelConceptWords, BackReferenceWords,
	MarketingKeywords, MarketingBriefNoise, MarketingStageAliases, MarketingSectionAliases, ConceptPhrases, UnitWords, UnitWordsShared, QuestionStarts, TurkishQuestionWords,
	BrandFollowers, Conjunctions, CurrencyWords, MultiplierAbbreviations, PercentWords, UnitModifiers,
}
