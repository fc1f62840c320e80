package grounding

// scan reads every fact of a text in lang: links and e-mail addresses first and the fixed
// patterns ("24/7", dates, times) next, each blanked once read so that its digits and words
// are not read again; then amounts, numbers written as words and concept families. It returns
// the facts, the blanked text and its words, which the name rules read on.
func scan(text, lang string) ([]fact, string, []word) {
	links, text := scanLinks(text)
	special, text := scanPatterns(text)
	facts := append(links, special...)
	facts = append(facts, scanAmounts(text, lang)...)
	ws := scanWords(text)
	facts = append(facts, scanNumberWords(text, ws, lang)...)
	facts = append(facts, scanConcepts(text, ws)...)
	return facts, text, ws
}
