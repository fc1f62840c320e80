package kb

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/store"
)

// Chunk sizes in characters. Around 700 characters a chunk holds one answerable fact with its
// context and still fits several times into a model prompt; no chunk exceeds chunkMax.
const (
	chunkTarget = 700
	chunkMax    = 1000
)

// piece is a chunk before analysis.
type piece struct {
	heading string
	text    string
}

// chunkBlocks groups blocks into pieces: a heading starts a new piece, small paragraphs are
// merged up to chunkTarget, and a paragraph longer than chunkMax is cut at sentence
// boundaries. Each piece carries the nearest heading above it, or title when there is none,
// as a path under the headings it lies in ("Economy › How are bitcoins created?"): a section's
// subsections are part of it ("Who owns bitcoin.org?" answered by the "Satoshi Nakamoto and
// Martti Malmi" below it). The page's own heading, the one heading of the outermost level
// that opens it, names the page, not a section, and heads no path.
func chunkBlocks(title string, blocks []block) []piece {
	c := chunker{title: title, heading: title, top: pageHeading(blocks)}
	for i, b := range blocks {
		if b.heading {
			c.startSection(b.text, b.level, i == c.top)
			continue
		}
		c.add(b.text)
	}
	c.flush()
	if c.orphan != "" && c.orphan != title {
		// A trailing heading with no text under it is still content ("Free returns"). One
		// as long as a paragraph (a whole text marked up as <h1>) is cut like one, so that
		// no chunk exceeds chunkMax.
		for _, part := range splitLong(c.orphan, chunkTarget, chunkMax) {
			c.out = append(c.out, piece{heading: c.orphan, text: part})
		}
	}
	if len(c.out) == 0 && len(blocks) > 0 {
		// Every block was the title itself (a body of one heading, "# Contact", that also
		// named the page): without this the document would have no chunk and never be found.
		for _, part := range splitLong(title, chunkTarget, chunkMax) {
			c.out = append(c.out, piece{heading: title, text: part})
		}
	}
	return c.out
}

type chunker struct {
	title   string
	heading string
	orphan  string // heading with no text under it yet
	// open are the headings the next block lies under, outermost first, with their levels.
	open []openHeading
	top  int // index of the page's own heading among the blocks, -1 when it has none
	buf  []string
	size int
	out  []piece
}

// openHeading is a heading whose section has not ended: h is its path.
type openHeading struct {
	level int
	h     string
}

// pageHeading returns the index of the page's own heading: the first heading, when it is the
// only one of the outermost level among them (the <h1> above a page's <h2> sections); -1
// otherwise.
func pageHeading(blocks []block) int {
	first, top, count := -1, 7, 0
	for i, b := range blocks {
		if !b.heading {
			continue
		}
		if first < 0 {
			first = i
		}
		switch lv := max(b.level, 1); {
		case lv < top:
			top, count = lv, 1
		case lv == top:
			count++
		}
	}
	if first < 0 || count != 1 || max(blocks[first].level, 1) != top {
		return -1
	}
	return first
}

func (c *chunker) startSection(h string, level int, page bool) {
	c.flush()
	level = max(level, 1)
	for len(c.open) > 0 && c.open[len(c.open)-1].level >= level {
		c.open = c.open[:len(c.open)-1] // a heading ends the sections of its level and below
	}
	if h == c.title && len(c.out) == 0 {
		return // the page repeats its title as the first heading
	}
	path := h
	switch {
	case len(c.open) > 0:
		path = c.open[len(c.open)-1].h + store.HeadingSep + h
	case c.orphan != "" && c.orphan != c.title:
		// Two headings in a row of one level ("Shipping" then "Domestic"), or the levels
		// unknown: keep both as a path.
		path = c.orphan + store.HeadingSep + h
	}
	if !page {
		c.open = append(c.open, openHeading{level: level, h: path})
	}
	c.heading = path
	c.orphan = path
}

func (c *chunker) add(p string) {
	n := utf8.RuneCountInString(p)
	if n > chunkMax {
		c.flush()
		for _, part := range splitLong(p, chunkTarget, chunkMax) {
			c.out = append(c.out, piece{heading: c.heading, text: part})
		}
		c.orphan = ""
		return
	}
	if c.size > 0 && c.size+1+n > chunkTarget {
		c.flush()
	}
	c.buf = append(c.buf, p)
	c.size += n
	if len(c.buf) > 1 {
		c.size++
	}
	c.orphan = ""
}

func (c *chunker) flush() {
	if len(c.buf) == 0 {
		return
	}
	c.out = append(c.out, piece{heading: c.heading, text: strings.Join(c.buf, "\n")})
	c.buf = c.buf[:0]
	c.size = 0
}

// splitLong cuts a long paragraph into parts of about target characters, at sentence ends
// where possible, and never longer than max.
func splitLong(p string, target, max int) []string {
	var parts []string
	var cur strings.Builder
	curLen := 0
	emit := func() {
		if t := strings.TrimSpace(cur.String()); t != "" {
			parts = append(parts, t)
		}
		cur.Reset()
		curLen = 0
	}
	for _, s := range sentences(p) {
		n := utf8.RuneCountInString(s)
		if n > max {
			emit()
			parts = append(parts, splitWords(s, max)...)
			continue
		}
		if curLen > 0 && curLen+1+n > target {
			emit()
		}
		if curLen > 0 {
			cur.WriteByte(' ')
			curLen++
		}
		cur.WriteString(s)
		curLen += n
	}
	emit()
	return parts
}

// sentences splits text after ".", "!", "?", "…" (and closing quotes or brackets after them)
// when white space follows. Numbers such as "2.029,00" are not split because no space follows
// the dot; abbreviations are, which is harmless because parts are merged back to size.
func sentences(s string) []string {
	var out []string
	rs := []rune(s)
	start := 0
	for i := 0; i < len(rs); i++ {
		if !strings.ContainsRune(".!?…", rs[i]) {
			continue
		}
		j := i + 1
		for j < len(rs) && strings.ContainsRune(`"'”’»)]`, rs[j]) {
			j++
		}
		if j < len(rs) && unicode.IsSpace(rs[j]) {
			if t := strings.TrimSpace(string(rs[start:j])); t != "" {
				out = append(out, t)
			}
			start = j
			i = j
		}
	}
	if t := strings.TrimSpace(string(rs[start:])); t != "" {
		out = append(out, t)
	}
	return out
}

// splitWords cuts a text with no usable sentence ends into parts of at most max characters,
// at spaces when there are any.
func splitWords(s string, max int) []string {
	var parts []string
	rs := []rune(s)
	for len(rs) > max {
		cut := max
		for i := max; i > max/2; i-- {
			if unicode.IsSpace(rs[i]) {
				cut = i
				break
			}
		}
		parts = append(parts, strings.TrimSpace(string(rs[:cut])))
		rs = []rune(strings.TrimLeftFunc(string(rs[cut:]), unicode.IsSpace))
	}
	if t := strings.TrimSpace(string(rs)); t != "" {
		parts = append(parts, t)
	}
	return parts
}
