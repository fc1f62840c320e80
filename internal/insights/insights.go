// Package insights groups the questions visitors asked into topics, per language, for the
// dashboard's overview: what customers ask about, how often, how well it was answered, and
// which declined questions share a subject.
//
// The grouping is general, not a list of subjects: every question is analyzed by the one
// language layer (textindex: its tokenizer, stop words, stemming, Turkish prefixes, German
// compounds, folding), the words a question only wraps itself in come from the lexicon's
// data files (weak_question_words, as the engine's ranking reads them), and a term's weight
// is its inverse frequency among the account's own questions. The method, step by step, is
// in Group's comment; it is deterministic (the same questions give the same topics in any
// order) and bounded (linear in the questions read, which the caller caps).
package insights

import (
	"time"
)

// Outcome is how the assistant handled a question.
type Outcome uint8

const (
	// Answered: the question got an answer (the engine's or a model's, a curated or a
	// reused one).
	Answered Outcome = iota + 1
	// Declined: the assistant said it does not know (the fallback, a low-confidence reply).
	Declined
	// Unserved: neither; a system notice stood in for the answer (no balance, cache-only).
	Unserved
)

// Rating is what the visitor said of the reply.
type Rating uint8

const (
	Unrated Rating = iota
	Helpful
	NotHelpful
)

// Question is one question a visitor asked.
type Question struct {
	ID      int64 // the question's message id: ties of At are ordered by it
	Text    string
	Lang    string // "tr", "en" or "de"; anything else is analyzed as English
	At      time.Time
	Outcome Outcome
	Rating  Rating
}

// Figures count a topic's questions.
type Figures struct {
	Asked    int // in the window the caller read
	Recent   int // since Options.RecentSince
	Answered int
	Declined int
	// Helpful and NotHelpful count the rated replies.
	Helpful, NotHelpful int
}

// Rated is how many of the topic's replies were rated.
func (f Figures) Rated() int { return f.Helpful + f.NotHelpful }

func (f *Figures) add(q *Question, recentSince time.Time) {
	f.Asked++
	if !q.At.Before(recentSince) {
		f.Recent++
	}
	switch q.Outcome {
	case Answered:
		f.Answered++
	case Declined:
		f.Declined++
	}
	switch q.Rating {
	case Helpful:
		f.Helpful++
	case NotHelpful:
		f.NotHelpful++
	}
}

// Example is one distinct question of a topic: the questions that differ only in case,
// spacing and diacritics' absence (the folded text) are one example.
type Example struct {
	Text   string // as last asked
	Lang   string
	ID     int64 // the newest question asking it
	Asked  int
	LastAt time.Time
	// Declined counts the times it was declined.
	Declined int
}

// Topic is a group of questions sharing their key term.
type Topic struct {
	Lang string
	// Terms are the analyzed terms the topic is named by: the key term its questions share
	// first, then, when most of them also share one, a second. Empty for Other.
	Terms []string
	// Label is Terms as people read them: for each term, the written word that gave it most
	// often ("siparişim" for "sipar").
	Label []string
	Figures
	// Examples are the topic's most asked distinct questions (newest first among equals).
	Examples []Example
	// Other marks the questions of the language that no topic holds.
	Other bool
}

// Language is one language's topics.
type Language struct {
	Lang      string
	Questions int // the language's questions, Topics and Other together
	// Topics are the language's topics, most asked first; Other (when any question is left
	// over) comes last.
	Topics []Topic
}

// Options bound what Group returns.
type Options struct {
	// RecentSince is where a topic's Recent count starts (seven days back, say).
	RecentSince time.Time
	// MaxTopics is how many topics a language gets at most (default 8); the questions of
	// topics past it count in Other.
	MaxTopics int
	// MaxExamples is how many examples a topic shows (default 3).
	MaxExamples int
}

const (
	defaultMaxTopics   = 8
	defaultMaxExamples = 3
)
