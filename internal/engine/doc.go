// Package engine is svc's built-in answer engine: it answers a visitor's question from the
// account's knowledge base without a network or a language model, by retrieval and
// extraction.
//
// Retrieval analyzes the question with textindex (the analyzer that indexed the KB), drops
// the words of its question phrase ("how long", "wie viele", "ne zaman") after reading the
// answer type from them, adds the alternates of its terms (the country of a place the KB
// never names; lexicon.go; the verb and prefix of a German
// infinitive with "zu" inside, separable.go) and German compounds of two of its
// words, and asks the store's full-text index for a pool of candidate chunks. The pool is reranked in Go in two stages. The first scores every candidate from
// its stored terms: BM25 with the account's own statistics (a prefix term matches every
// term it starts) plus the share of the question's weight the chunk contains. The second
// splits the best few into sentences and adds how much of the question meets in one
// sentence, question bigrams, title and heading matches and a small same-language bonus.
// Every feature is measured in units of the question's own weight, so one set of weights
// serves short and long questions; they were tuned on the XQuAD dev split (internal/eval).
//
// Extraction scores the sentences of the best document for the question's terms and for the
// kind of answer it asks for (a number, a duration, a date, a name) and quotes a window: the
// best sentence and its neighbours within its section, up to Options.MaxReplyChars, never
// cutting a sentence (window.go). A section under a heading that the KB stored as several
// chunks is read as one text (section.go): the chunk that matched best need not be the one
// that answers. The reply wraps the quote with a short lead-in in the
// requested tone and language and names the source page, in at most Options.MaxReply
// characters. A lead-in names a kind of answer ("As for the timing:") only when the quote
// holds one (leadin.go); its wordings, like every fixed text of a reply, are the i18n
// catalog's (replytexts.go).
//
// Before the confidence check and extraction, the ranked passages are put in the order that
// answers the question as asked (arbitrate.go): a product whose name the question's variant
// tokens exclude (package variant: "Nova 12 Pro" when the Lite is asked for) goes last;
// passages in the reply's language come first when one of them is confident; a passage
// that names another place and none the question names goes after those that name one
// (places.go); and a page
// that holds more of what the question asks about a product than the product's own text
// ("the return policy for a sleeping bag") comes before the product.
//
// Whether the quote answers at all is one decision (answerability.go): a logistic model over
// the evidence of the reply (how much of the question the passage, its best sentence and the
// quote hold, what the KB never mentions, the kind of answer asked for and held, headings,
// the margin over the next document), fitted on the dev sets with unanswerable questions and
// shipped as data (answerability.json). Below its threshold Answer returns a fallback that
// asks the visitor to rephrase instead of quoting something unrelated.
//
// With Sales Mode (Request.SalesMode), a question about products also gets product cards.
// ProductIntent reads from the wording whether the visitor asks for a price, stock, a
// listing, a comparison or a recommendation (intent.go); a question without such wording
// counts when a best passage is a product it names. "Best", "en iyi", "beste" and
// superlatives are weak cues (StrongIntent leaves them out). The cards come from a search of
// the account's product documents for the question's subject, the question less its product
// wording, reranked like passages, cut to the products that match it well and whose variant
// the question does not exclude, in the question's language and at most Options.MaxCards
// (shelf.go). Wording only proposes: when the pages hold more of what the question asks
// about the products than the products' text does, the pages answer and there is no card
// (pagesAnswer in arbitrate.go); a listing, comparison or recommendation in strong words
// that names a kind of product keeps its cards, unless it qualifies that kind with words the
// products never say ("a light wallet and a full wallet"). "The best way to …" is weighed
// without the way, which a product's copy may share: the products answer it only when their
// text holds at least half of the rest. A listing, comparison or
// recommendation is answered with the carded products and their prices (sales.go), any
// other product question with the extractive reply; either way NameGuard (names.go) keeps
// the text to sentences that name only carded products. Cards never come from anywhere but
// the account's stored product documents.
package engine
