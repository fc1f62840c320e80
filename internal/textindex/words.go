package textindex

// Word is one word of a text as QueryWords reads it: its written form, lower-cased as the
// tokenizer cuts it but not folded ("siparişim"), whether it was written with a capital
// letter, and the query terms it gives (none for a stop word).
type Word struct {
	Text    string
	Capital bool
	Terms   []Term
}

// QueryWords analyzes text in lang word by word, exactly as QueryTerms analyzes each word
// (stop words, the Turkish ability root, stemming, folding, German compound parts), but
// keeps every word with the terms it gave, repeats included, in text order. A caller that
// shows analyzed terms to people names each term by a word that gave it: "sipar" is
// "siparişim" to a reader.
func QueryWords(text, lang string) []Word {
	a := newAnalyzer(lang)
	toks := tokenize(text, a.lang)
	out := make([]Word, 0, len(toks))
	for _, tok := range toks {
		out = append(out, Word{Text: tok.text, Capital: tok.capital, Terms: a.queryTokens([]token{tok})})
	}
	return out
}
