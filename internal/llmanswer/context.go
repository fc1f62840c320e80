package llmanswer

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"svc/internal/engine"
	"svc/internal/prompt"
)

// kbContext is what one answer may rely on: the numbered passages and the product cards,
// rendered once for the reply and the check, and the numbers and links they contain for
// the local guard.
type kbContext struct {
	passages []engine.Passage // in prompt order: passage n is passages[n-1]
	cards    []engine.Card
	kb       string // the <kb> block
	products string // the <products> block
	numbers  map[string]bool
	links    []string
	evidence string // the built-in engine's evidence for the standalone question
	// embedModel and embedTokens are what the searches by meaning spent embedding the
	// questions, billed with the reply.
	embedModel  string
	embedTokens int
}

func (c *kbContext) empty() bool { return len(c.passages) == 0 && len(c.cards) == 0 }

// gather retrieves passages for the standalone question and the planner's queries, one per
// document, and the product cards when Sales Mode is on, and renders them within the
// context budget. Retrieval is the built-in engine's and scoped to the account, so no other
// tenant's text can reach a prompt.
func (e *Engine) gather(ctx context.Context, req engine.Request, pl plan) (*kbContext, error) {
	base, err := e.base.Answer(ctx, engine.Request{AccountID: req.AccountID, Question: pl.Standalone, Lang: req.Lang,
		Tone: req.Tone, SalesMode: req.SalesMode})
	if err != nil {
		return nil, err
	}
	c := &kbContext{numbers: map[string]bool{}, evidence: base.Evidence, embedModel: base.EmbeddingModel,
		embedTokens: base.EmbeddingTokens}
	if !base.Grounded && len(base.Cards) == 0 && len(pl.Queries) == 0 {
		// Neither the built-in engine's evidence test nor the search by meaning found
		// anything that covers the question (in any language of the KB), and no planner
		// offered other wording: a model would only be paid to say so.
		return c, nil
	}
	// The built-in answer already retrieved the standalone question's passages; only the
	// planner's queries (and a question it found no answer to) need a search of their own.
	queries := pl.Queries
	if len(base.Passages) == 0 {
		queries = append([]string{pl.Standalone}, queries...)
	}
	seenDoc := map[int64]bool{}
	var cands []engine.Passage
	add := func(ps []engine.Passage) {
		for _, p := range ps {
			if !seenDoc[p.DocID] {
				seenDoc[p.DocID] = true
				cands = append(cands, p)
			}
		}
	}
	add(base.Passages)
	for _, q := range queries {
		got, model, tokens, err := e.base.RetrieveSpent(ctx, req.AccountID, q, req.Lang, e.opts.Passages)
		if err != nil {
			return nil, err
		}
		if tokens > 0 {
			c.embedModel, c.embedTokens = model, c.embedTokens+tokens
		}
		add(got)
	}
	c.cards = base.Cards
	var kb, products strings.Builder
	used := 0
	for _, cd := range c.cards {
		line := productLine(cd)
		used += e.base.CountTokens(line)
		products.WriteString(line)
	}
	for _, p := range cands {
		text, _ := dropInstructions(p.Text, req.Lang)
		if strings.TrimSpace(text) == "" {
			continue
		}
		head := p.Title
		if p.URL != "" {
			head += " — " + p.URL
		}
		entry := fmt.Sprintf("[%d] %s\n%s\n", len(c.passages)+1, head, text)
		n := e.base.CountTokens(entry)
		if used+n > e.opts.ContextTokens {
			if len(c.passages) > 0 {
				break
			}
			entry = clipTokens(entry, e.opts.ContextTokens-used, e.base.CountTokens)
			n = e.base.CountTokens(entry)
		}
		used += n
		kb.WriteString(entry)
		p.Text = text
		c.passages = append(c.passages, p)
	}
	c.kb, c.products = kb.String(), products.String()
	all := c.kb + "\n" + c.products + "\n" + req.Question
	for _, n := range numberRe.FindAllString(all, -1) {
		c.numbers[digitsOf(n)] = true
	}
	c.links = linkRe.FindAllString(all, -1)
	return c, nil
}

func productLine(c engine.Card) string {
	parts := []string{c.Product.Name}
	for _, v := range []string{c.Product.Price, c.Product.Category, c.Product.URL} {
		if v != "" {
			parts = append(parts, v)
		}
	}
	return "- " + strings.Join(parts, " | ") + "\n"
}

// clipTokens shortens text by characters until count says it fits n tokens.
func clipTokens(text string, n int, count func(string) int) string {
	r := []rune(text)
	for len(r) > 0 && count(string(r)) > n {
		r = r[:len(r)*9/10]
	}
	return string(r)
}

// blocks renders the context for a prompt.
func (c *kbContext) blocks() string {
	s := prompt.Fence("kb", c.kb)
	if c.products != "" {
		s += prompt.Fence("products", c.products)
	}
	return s
}

// docIDs are the documents the reply drew on: the cited passages (all of them when none was
// cited), then the cards. A change to any of them withdraws the cached answer.
func (c *kbContext) docIDs(cited []int, cards []engine.Card) []int64 {
	var out []int64
	add := func(id int64) {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, n := range cited {
		if n >= 1 && n <= len(c.passages) {
			add(c.passages[n-1].DocID)
		}
	}
	if len(out) == 0 {
		for _, p := range c.passages {
			add(p.DocID)
		}
	}
	for _, cd := range cards {
		add(cd.DocID)
	}
	return out
}

// sourceLine names the first cited passage the way the built-in engine does.
func (c *kbContext) sourceLine(lg string, cited []int) string {
	for _, n := range cited {
		if n >= 1 && n <= len(c.passages) {
			p := c.passages[n-1]
			return engine.SourceLine(lg, p.Title, p.URL)
		}
	}
	return ""
}

var (
	numberRe = regexp.MustCompile(`\d[\d.,:/]*\d|\d`)
	linkRe   = regexp.MustCompile(`https?://[^\s<>()"']+`)
)

// digitsOf keeps the digits of a number as written, so "1.500", "1,500" and "1500" agree.
func digitsOf(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return strings.TrimLeft(b.String(), "0")
}
