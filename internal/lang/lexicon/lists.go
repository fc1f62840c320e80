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
)

// registry is every list, for Load's checks.
var registry = []List{
	LanguageNames,
	ProductLineWords,
	ProductSeriesWords,
	NumberWords,
	ArticleNumbers,
}
