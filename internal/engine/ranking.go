package engine

// Ranking holds the weights of reranking and sentence extraction. Every feature is in units
// of the question's own weight (the sum of its terms' idf), so the weights mean the same for
// short and long questions. The defaults are what measured best on the XQuAD dev split in all
// three languages; a weight of 0 turns its feature off (internal/eval logs each ablation).
type Ranking struct {
	// BM25 parameters over the stored chunk terms (title, heading and text).
	K1, B float64
	// Coverage rewards passages that contain more of the question's distinct terms,
	// independent of how often they repeat.
	Coverage float64
	// Sentence rewards passages where the question's terms meet in one sentence.
	Sentence float64
	// Bigram rewards question terms that stand next to each other in the passage too.
	Bigram float64
	// Title rewards question terms in the document title or section heading.
	Title float64
	// Context is how strongly a title or heading term counts as present in every sentence
	// under it when sentences are compared: a sentence on the page "Delivery" is about
	// delivery even when it does not say so.
	Context float64
	// ExtractContext is the same for the extraction of sentences.
	ExtractContext float64
	// Lang is a small bonus for passages in the question's language.
	Lang float64
	// Entry rewards an FAQ entry, a section whose heading is a question, by the share of the
	// question's words that heading holds (see entryMatch).
	Entry float64
	// RankCue rewards a chunk with a sentence that holds what the question type asks for (a
	// number for "how big", a date for "when"), as Cue does for sentences.
	RankCue float64
	// Defines rewards a page whose title names nothing but question terms ("View-key" for
	// "what is the view key for?"), a glossary entry or a page about the question's subject,
	// by the share of the question's weight its title holds (see titleDefines).
	Defines float64
	// Contents scales the score of a chunk that only lists headings or links (contentsLike);
	// 0 leaves it alone.
	Contents float64
	// Soft is the strength of a near match between stems (see softMatch), in every feature;
	// 0 turns near matches off.
	Soft float64
	// Weak is the share of its weight that a light word of a question keeps (see weakWords).
	Weak float64

	// Extraction: a sentence's score is its share of the question's weight plus these.
	Local      float64 // exponent of the down-weighting of terms common in the page (see localWeights)
	SentBigram float64 // adjacent question terms in the sentence
	Cue        float64 // the sentence holds what the question type asks for (number, date, name, place)
	// Margin: a sentence of another chunk of the document opens a second window only when its
	// score is within Margin of the best sentence's (see growWindows).
	Margin float64
}

// DefaultRanking returns the measured defaults.
func DefaultRanking() Ranking {
	return Ranking{
		K1: 1.2, B: 0.75,
		Coverage: 0.5, Sentence: 1.2, Bigram: 0.4,
		Title: 1, Context: 0.5, ExtractContext: 1,
		Lang: 0.05, Entry: 1, RankCue: 0.1, Defines: 0.3, Contents: 0.5, Soft: 0.5, Weak: 0.3,
		Local: 1, SentBigram: 0.3, Cue: 0.3, Margin: 0.5,
	}
}
