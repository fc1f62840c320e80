package engine

import (
	"context"
	"strings"
	"unicode/utf8"

	lexdata "svc/internal/lang/lexicon" // engine has a lexicon type of its own
)

// Turn is one earlier message of the conversation, as context for a new question.
type Turn struct {
	Role string // "user" or "assistant"
	Text string
}

// Call is one unit of work billed for an answer: a provider sub-call, or the built-in
// engine's own reading and writing, with the tokens it used.
type Call struct {
	Name         string // "plan", "reply", "check", "summary" or "engine"
	Model        string // "" for the built-in engine
	InputTokens  int
	OutputTokens int
}

// SummaryRequest asks for the conversation's summary to take in turns that leave the
// context window.
type SummaryRequest struct {
	AccountID int64
	Lang      string // the conversation's language; the summary is written in it
	Previous  string // the summary so far ("" for the first)
	Turns     []Turn // the turns leaving the window, oldest first
}

// Summary is a conversation summary and what writing it used.
type Summary struct {
	Text  string
	Calls []Call
}

// QuestionKind names the kind of answer a question asks for, read from its question words:
// "number", "duration", "date", "person", "place", or "" when the words say nothing. Two
// questions on the same subject that ask for different kinds ("how long" and "how much")
// want different answers, which the analyzer's terms alone cannot tell, because question
// words are stop words.
func QuestionKind(text, lg string) string {
	kind, _ := questionPhrase(text, lg)
	switch kind {
	case askNumber:
		return "number"
	case askDuration:
		return "duration"
	case askDate:
		return "date"
	case askPerson:
		return "person"
	case askPlace:
		return "place"
	}
	return ""
}

// Budget is the built-in engine's reservation for one answer: none. Its cost is known only
// after it has read the passages, it is small, and the charge is taken conditionally when
// the turn is saved, so a balance too small for it gets the insufficient-balance notice.
func (e *Engine) Budget(Request, []Turn) (in, out int) { return 0, 0 }

// Limits of the extractive summary.
const (
	summaryMaxChars  = 1200 // the whole summary
	summaryLineChars = 160  // one question or answer in it
)

// Summarize folds the turns into the summary extractively: each question and the first
// sentence of its answer, clipped, newest kept when the whole would run over
// summaryMaxChars. It reads what it folds, so the input tokens are the previous summary
// and the turns, and the output tokens the new summary.
func (e *Engine) Summarize(_ context.Context, req SummaryRequest) (Summary, error) {
	lg := questionLang(req.Lang, "")
	labels := summaryLabels[lg]
	var lines []string
	if req.Previous != "" {
		lines = strings.Split(req.Previous, "\n")
	}
	in := e.textTokens(req.Previous)
	for _, t := range req.Turns {
		in += e.textTokens(t.Text)
		text := strings.Join(strings.Fields(t.Text), " ")
		if text == "" {
			continue
		}
		label := labels.visitor
		if t.Role == "assistant" {
			label = labels.assistant
			if s := SplitLine(text, lg); len(s) > 0 {
				text = s[0]
			}
		}
		lines = append(lines, label+": "+Clip(text, summaryLineChars))
	}
	for len(lines) > 1 && utf8.RuneCountInString(strings.Join(lines, "\n")) > summaryMaxChars {
		lines = lines[1:]
	}
	text := strings.Join(lines, "\n")
	return Summary{Text: text, Calls: []Call{{Name: "summary", InputTokens: in, OutputTokens: e.textTokens(text)}}}, nil
}

// textTokens is CountTokens for the texts a conversation's fold reads: its questions, its
// replies and its summary. Each is counted once when it is billed (a question and its reply
// when answered, a summary as the output of the fold that writes it) and again as the input
// of the fold that takes it in; and while sends run in parallel in one conversation (an API
// integration's), each folds the turns that have left its window, the same turns as its
// neighbours. Counting them again was most of a fold's time, and a fold every fifth turn of a
// conversation made the slowest new answers, so recent counts are remembered by their text: a
// lookup with the same result.
func (e *Engine) textTokens(s string) int {
	if s == "" {
		return 0
	}
	if n, ok := e.summaries.Get(s); ok {
		return n
	}
	n := e.CountTokens(s)
	e.summaries.Add(s, n)
	return n
}

// Clip cuts s to at most n characters, marking the cut with an ellipsis.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

var summaryLabels = func() map[string]struct{ visitor, assistant string } {
	out := make(map[string]struct{ visitor, assistant string })
	for _, lg := range lexdata.Languages() {
		table := lexdata.Default().Table(lexdata.ConversationLabels, lg)
		v, _ := table.Get("visitor")
		a, _ := table.Get("assistant")
		out[lg] = struct{ visitor, assistant string }{v, a}
	}
	return out
}()

// FallbackText is the built-in reply when nothing answers a question: it says so and asks
// for a rephrase, in the language and tone given.
func FallbackText(lg, tone string) string {
	return phrasesFor(questionLang(lg, ""), tone).fallback
}
