package llmanswer

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"svc/internal/engine"
)

// release is the local guard run over the reply sentence by sentence as the model writes it.
// The streamed answer and the unstreamed one run it alike (the unstreamed one hands it the
// whole text at once), so both reach the same body by the same checks:
//
//   - the text is read without its citations ("[1]", citeRe), which name the passages;
//   - nothing is released while the text could still be the NO_ANSWER marker, because only
//     a complete sentence is released and the marker anywhere makes the reply the fallback;
//   - each complete sentence passes the checks guard ran on the whole reply: the text up to
//     and including it holds no secret, no canary or rule of the prompt and nothing that
//     reads as an instruction (checked on that whole prefix, so a match across sentences is
//     caught exactly as on the whole reply), and the sentence no number or link absent from
//     the context; one that fails makes the reply the fallback;
//   - in Sales Mode the sentence then passes NameGuard against the cards: a sentence naming
//     another product is dropped, and what remains of it is released;
//   - released sentences keep the white space that stood between them; across a dropped
//     sentence, a line break if there was one, else a space.
//
// A reply that became the fallback after text was released is replaced (engine.Piece with
// Replace): the visitor never keeps text the reply did not keep.
type release struct {
	e    *Engine
	ctx  context.Context
	req  engine.Request
	c    *kbContext
	sink func(engine.Piece) // nil: nothing is streamed

	raw   strings.Builder // the model's text so far
	done  int             // raw[:done] is read into clean
	clean strings.Builder // raw[:done] without citations
	next  int             // clean[:next] is cut into sentences

	out      strings.Builder // the guarded reply: what was released
	gap      string          // the white space since the last released sentence
	skipped  bool            // a sentence was dropped since then
	broke    bool            // ... and a line break stood in the gap
	failed   bool            // the reply is the fallback
	streamed bool            // something reached sink
	err      error           // a search of NameGuard failed: the answer fails with it
}

func (e *Engine) newRelease(ctx context.Context, req engine.Request, c *kbContext) *release {
	return &release{e: e, ctx: ctx, req: req, c: c, sink: req.Stream}
}

// write takes the next piece of the model's text.
func (r *release) write(piece string) {
	r.raw.WriteString(piece)
	r.advance(false)
}

// citeTail matches what may be the start of a citation still being written: white space,
// then "[" and up to two digits. It is held back until the next piece tells.
var citeTail = regexp.MustCompile(`\s*(\[\d{0,2})?$`)

// advance reads what arrived: the text without citations, then every sentence now complete.
func (r *release) advance(final bool) {
	if r.failed || r.err != nil {
		return
	}
	raw := r.raw.String()
	if strings.Contains(raw, noAnswer) {
		r.fail()
		return
	}
	cut := len(raw)
	if !final {
		cut = citeTail.FindStringIndex(raw[r.done:])[0] + r.done
	}
	if cut > r.done {
		// No citation spans the cut: the text before it ends in neither white space nor an
		// unfinished "[n", so reading piecewise removes what reading the whole removes.
		r.clean.WriteString(citeRe.ReplaceAllString(raw[r.done:cut], ""))
		r.done = cut
	}
	clean := r.clean.String()
	for r.next < len(clean) && !r.failed && r.err == nil {
		rest := clean[r.next:]
		body := strings.TrimLeftFunc(rest, unicode.IsSpace)
		gap := rest[:len(rest)-len(body)]
		if body == "" {
			break // only white space so far: it belongs to the next sentence
		}
		end, ok := engine.SentenceEnd(body, r.req.Lang)
		if !ok {
			if !final {
				break
			}
			end = len(body)
		}
		r.next += len(gap) + end
		r.sentence(gap, strings.TrimSpace(body[:end]), clean[:r.next])
	}
}

// sentence guards one complete sentence; seen is the reply's text up to its end.
func (r *release) sentence(gap, s, seen string) {
	r.gap += gap
	if s == "" {
		return
	}
	if !r.e.allowed(strings.TrimSpace(seen), s, r.c) {
		r.e.log.Info("reply failed the local guard", "account", r.req.AccountID)
		r.fail()
		return
	}
	if r.req.SalesMode && len(r.c.cards) > 0 {
		kept, err := r.e.names(r.ctx, r.req, s, r.c.cards)
		if err != nil {
			r.err = err
			return
		}
		if kept == "" {
			r.skipped = true
			r.broke = r.broke || strings.Contains(r.gap, "\n")
			r.gap = ""
			return
		}
		s = kept
	}
	sep := r.gap
	switch {
	case r.out.Len() == 0:
		sep = ""
	case r.skipped && (r.broke || strings.Contains(sep, "\n")):
		sep = "\n"
	case r.skipped:
		sep = " "
	}
	r.gap, r.skipped, r.broke = "", false, false
	r.out.WriteString(sep + s)
	r.emit(engine.Piece{Text: sep + s})
}

func (r *release) emit(p engine.Piece) {
	if r.sink != nil {
		r.sink(p)
		r.streamed = true
	}
}

// fail makes the reply the fallback and releases nothing more: what was released is
// replaced by the fallback, or, with nothing released yet, the fallback is released.
func (r *release) fail() {
	r.failed = true
	r.emit(engine.Piece{Text: r.e.fallback(r.req).Text, Replace: r.streamed})
}

// finish reads the end of the reply and returns the guarded body and the passages it
// cited; ok is false when the reply is the fallback (already released as such).
func (r *release) finish() (body string, cited []int, ok bool) {
	r.advance(true)
	if r.err != nil || r.failed {
		return "", nil, false
	}
	if r.out.Len() == 0 {
		// No answer at all, or NameGuard left nothing of it.
		r.fail()
		return "", nil, false
	}
	for _, m := range citeRe.FindAllStringSubmatch(r.raw.String(), -1) {
		n, _ := strconv.Atoi(m[1])
		if !slices.Contains(cited, n) {
			cited = append(cited, n)
		}
	}
	return r.out.String(), cited, true
}

// decline replaces what was released by the fallback: the check did not support it.
func (r *release) decline() { r.fail() }

// add releases text after the body (the source line).
func (r *release) add(text string) {
	r.out.WriteString(text)
	r.emit(engine.Piece{Text: text})
}
