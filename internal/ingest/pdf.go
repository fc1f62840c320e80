package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// readPDF reads a PDF's text with its layout's structure. ledongthuc/pdf parses the file
// and decodes fonts; the content streams are interpreted here (pdf.Interpret) with the
// text positioning operators followed, so that lines are found by their baseline, words
// by the gaps between them, paragraphs by the space between lines, and headings by a font
// larger than the body text's (or a short line wholly in bold). Running headers and
// footers that repeat on most pages, and page numbers, are dropped.
//
// An encrypted PDF that opens with the empty password (permissions only) is read when the
// library can decrypt it (RC4 and AES-128); otherwise, and when it needs a password, it is
// ErrEncrypted. pdfcpu could decrypt AES-256 too, but it would add a second PDF library for
// a case whose fix is the owner's one click ("save without password"), which the error says.
//
// The page tree and inherited resources are walked here with depth bounds (the library's
// own walks loop forever on a cyclic tree), and every content stream and font map is
// expanded once with a bound before it is interpreted, so a compression bomb costs at
// most MaxUnzipped.
func readPDF(b *body, data []byte) error {
	// The library can still loop on a crafted object stream (its lexer's end-of-data bug,
	// which lexSafe keeps from the content streams and font maps): the parse runs aside, and
	// the deadline answers the upload even then, at the cost of the stuck goroutine.
	type parsed struct {
		lines     []pdfLine
		encrypted bool
		err       error
	}
	ch := make(chan parsed, 1)
	go func() {
		var p parsed
		defer func() {
			if r := recover(); r != nil {
				p = parsed{err: b.corrupt(PDF, fmt.Errorf("panic: %v", r))}
			}
			ch <- p
		}()
		p.lines, p.encrypted, p.err = pdfLines(b.reader, data)
	}()
	var p parsed
	select {
	case p = <-ch:
	case <-b.ctx.Done():
		return b.alive()
	}
	lines, encrypted, err := p.lines, p.encrypted, p.err
	if err != nil {
		return err
	}
	err = pdfBlocks(b, lines)
	if encrypted && Code(err) == CodeNoText {
		// Encrypted with an empty password, in a way the library cannot decrypt (AES-256,
		// some RC4 writers): what reads as no text is the encryption.
		return fail(CodeEncrypted, b.name, err)
	}
	return err
}

// pdfLines reads every line of text of a PDF, page by page, and whether it is encrypted.
func pdfLines(rd *reader, data []byte) (_ []pdfLine, encrypted bool, _ error) {
	if bytes.Contains(data, []byte("/Extends")) {
		// An object stream extending another: rare in real files, and a cycle of them
		// makes the library search forever.
		return nil, false, rd.corrupt(PDF, errors.New("object stream /Extends"))
	}
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		if errors.Is(err, pdf.ErrInvalidPassword) || strings.Contains(err.Error(), "encrypt") {
			return nil, true, fail(CodeEncrypted, rd.name, err)
		}
		return nil, false, rd.corrupt(PDF, err)
	}
	encrypted = r.Trailer().Key("Encrypt").Kind() != pdf.Null
	if n := r.NumPage(); n > rd.lim.MaxPages {
		return nil, encrypted, fail(CodeTooManyPages, rd.name, nil, rd.lim.MaxPages)
	}
	pages, err := pdfPages(rd, r.Trailer().Key("Root").Key("Pages"))
	if err != nil {
		return nil, encrypted, err
	}
	if len(pages) == 0 {
		return nil, encrypted, rd.corrupt(PDF, errors.New("no pages"))
	}
	var expanded int64
	var lines []pdfLine
	for i, pg := range pages {
		if err := rd.alive(); err != nil {
			return nil, encrypted, err
		}
		pl, err := pageLines(rd, pg, i+1, &expanded)
		if err != nil {
			return nil, encrypted, err
		}
		lines = append(lines, pl...)
	}
	return lines, encrypted, nil
}

// pdfPages walks the page tree in order, at most maxPDFDepth deep and MaxPages pages.
func pdfPages(rd *reader, root pdf.Value) ([]pdf.Value, error) {
	var pages []pdf.Value
	visits := 0
	var walk func(n pdf.Value, depth int) error
	walk = func(n pdf.Value, depth int) error {
		visits++
		if depth > maxPDFDepth || visits > 4*rd.lim.MaxPages+1024 {
			return rd.corrupt(PDF, errors.New("page tree too deep or cyclic"))
		}
		switch n.Key("Type").Name() {
		case "Page":
			pages = append(pages, n)
			if len(pages) > rd.lim.MaxPages {
				return fail(CodeTooManyPages, rd.name, nil, rd.lim.MaxPages)
			}
			return nil
		case "Pages":
			kids := n.Key("Kids")
			for i := 0; i < kids.Len(); i++ {
				if err := walk(kids.Index(i), depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(root, 0); err != nil {
		return nil, err
	}
	return pages, nil
}

// maxPDFDepth bounds walks of the page tree and of a page's Parent chain.
const maxPDFDepth = 64

// inherited is a page's attribute, looked up its Parent chain as the format says.
func inherited(pg pdf.Value, key string) pdf.Value {
	v := pg
	for range maxPDFDepth {
		if v.IsNull() {
			break
		}
		if r := v.Key(key); !r.IsNull() {
			return r
		}
		v = v.Key("Parent")
	}
	return pdf.Value{}
}

// expand reads a stream (or an array of them, as one) once to its end, counting its expanded
// size against MaxUnzipped, so that Interpret never meets a bomb, and reports whether the
// library's lexer can read it to its end (lexSafe).
func expand(rd *reader, v pdf.Value, total *int64) (safe bool, err error) {
	var buf bytes.Buffer
	if err := expandInto(rd, v, total, &buf); err != nil {
		return false, err
	}
	return lexSafe(buf.Bytes()), nil
}

func expandInto(rd *reader, v pdf.Value, total *int64, buf *bytes.Buffer) error {
	if v.Kind() == pdf.Array {
		for i := 0; i < v.Len() && i < 4096; i++ {
			if err := expandInto(rd, v.Index(i), total, buf); err != nil {
				return err
			}
		}
		return nil
	}
	if v.Kind() != pdf.Stream {
		return nil
	}
	rc := v.Reader()
	defer rc.Close()
	left := rd.lim.MaxUnzipped - *total
	n, err := io.Copy(buf, io.LimitReader(rc, left+1))
	*total += n
	if *total > rd.lim.MaxUnzipped {
		return fail(CodeZipBomb, rd.name, nil, rd.lim.MaxUnzipped>>20)
	}
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return rd.corrupt(PDF, err)
	}
	return nil
}

// lexSafe reports whether ledongthuc/pdf's lexer reaches the end of data: it reads past
// the end of a stream as an endless run of newlines, and its hex string reader skips
// white space without checking for the end, so a stream ending inside "<…" (with only hex
// digits and spaces after it) makes Interpret loop forever. This follows the lexer's
// tokens (comments, literal strings with their nesting and escapes, "<<" against "<") to
// find one; a character the lexer refuses ends its reading anyway.
func lexSafe(data []byte) bool {
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '%':
			for i < len(data) && data[i] != '\r' && data[i] != '\n' {
				i++
			}
		case '(':
			depth := 1
			for i++; i < len(data) && depth > 0; i++ {
				switch data[i] {
				case '\\':
					i++
				case '(':
					depth++
				case ')':
					depth--
				}
			}
			i--
		case '<':
			if i+1 < len(data) && data[i+1] == '<' {
				i++
				continue
			}
			j := i + 1
			for ; j < len(data) && data[j] != '>'; j++ {
				if !isHexOrSpace(data[j]) {
					break // the lexer panics here: its reading ends
				}
			}
			if j == len(data) {
				return false
			}
			i = j
		}
	}
	return true
}

func isHexOrSpace(c byte) bool {
	switch {
	case '0' <= c && c <= '9', 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
		return true
	}
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0
}

// pdfLine is one line of text on a page.
type pdfLine struct {
	text string
	size float64 // font size in user space
	page int
	gap  float64 // distance from the line above on the page; -1 for a page's first
	x    float64
	bold bool
}

// pdfFont is a font of a page as the interpreter needs it.
type pdfFont struct {
	enc    pdf.TextEncoding
	first  int
	widths []float64
	twoB   bool // composite font: two-byte codes, widths not read
	bold   bool
}

func loadFont(rd *reader, fv pdf.Value, total *int64) (*pdfFont, error) {
	safe, err := expand(rd, fv.Key("ToUnicode"), total)
	if err != nil {
		return nil, err
	}
	pf := &pdfFont{enc: latin1{}, twoB: fv.Key("Subtype").Name() == "Type0"}
	if safe { // else its character map would hang the library: the codes are read as bytes
		f := pdf.Font{V: fv}
		pf.enc = f.Encoder()
	}
	base := strings.ToLower(fv.Key("BaseFont").Name())
	pf.bold = strings.Contains(base, "bold") || strings.Contains(base, "black") || strings.Contains(base, "heavy")
	if !pf.twoB {
		pf.first = int(fv.Key("FirstChar").Int64())
		w := fv.Key("Widths")
		for i := 0; i < w.Len() && i < 256; i++ {
			pf.widths = append(pf.widths, w.Index(i).Float64())
		}
	}
	return pf, nil
}

// advance is the width of raw's glyphs in text space units of 1/1000 em, word spacing
// and character spacing aside.
func (f *pdfFont) advance(raw string) (w float64, spaces int) {
	if f == nil || f.twoB {
		return 500 * float64(len(raw)/2+len(raw)%2), 0
	}
	for i := 0; i < len(raw); i++ {
		c := int(raw[i])
		if c == ' ' {
			spaces++
		}
		if k := c - f.first; k >= 0 && k < len(f.widths) && f.widths[k] > 0 {
			w += f.widths[k]
		} else {
			w += 500
		}
	}
	return w, spaces
}

// latin1 reads a font's codes as Latin-1 characters, for a font whose own map is unusable.
type latin1 struct{}

func (latin1) Decode(raw string) string {
	out := make([]rune, len(raw))
	for i := 0; i < len(raw); i++ {
		out[i] = rune(raw[i])
	}
	return string(out)
}

// matrix is an affine transform [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul is m then n.
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func operands(stk *pdf.Stack) []pdf.Value {
	n := stk.Len()
	args := make([]pdf.Value, n)
	for i := n - 1; i >= 0; i-- {
		args[i] = stk.Pop()
	}
	return args
}

func nums(args []pdf.Value, n int) ([]float64, bool) {
	if len(args) != n {
		return nil, false
	}
	out := make([]float64, n)
	for i, a := range args {
		out[i] = a.Float64()
		if math.IsNaN(out[i]) || math.IsInf(out[i], 0) {
			return nil, false
		}
	}
	return out, true
}

// pageLines interprets one page's content streams into lines.
func pageLines(rd *reader, pg pdf.Value, page int, total *int64) (lines []pdfLine, err error) {
	defer func() {
		if p := recover(); p != nil { // a malformed stream: the lines read so far stand
			err = nil
		}
	}()
	contents := pg.Key("Contents")
	safe, err := expand(rd, contents, total)
	if err != nil {
		return nil, err
	}
	if !safe {
		return nil, nil // the page's text cannot be read without hanging the lexer
	}
	fontsDict := inherited(pg, "Resources").Key("Font")
	fonts := map[string]*pdfFont{}
	lb := lineBuilder{page: page, lines: &lines}
	var (
		ctm                = identity
		stack              []matrix
		tm, tlm            = identity, identity
		font               *pdfFont
		size, tc, tw, lead float64
		th                 = 1.0
		failure            error
	)
	show := func(raw string) {
		if font == nil || failure != nil {
			return
		}
		text := font.enc.Decode(raw)
		w, spaces := font.advance(raw)
		tx := (w/1000*size + tc*float64(utf8.RuneCountInString(text)) + tw*float64(spaces)) * th
		trm := tm.mul(ctm)
		eff := size * math.Hypot(trm[2], trm[3])
		x0, y0 := trm[4], trm[5]
		tm = matrix{1, 0, 0, 1, tx, 0}.mul(tm)
		end := tm.mul(ctm)
		lb.add(text, x0, y0, end[4], eff, font.bold)
	}
	pdf.Interpret(contents, func(stk *pdf.Stack, op string) {
		args := operands(stk)
		switch op {
		case "q":
			if len(stack) < 64 {
				stack = append(stack, ctm)
			}
		case "Q":
			if n := len(stack); n > 0 {
				ctm, stack = stack[n-1], stack[:n-1]
			}
		case "cm":
			if v, ok := nums(args, 6); ok {
				ctm = matrix{v[0], v[1], v[2], v[3], v[4], v[5]}.mul(ctm)
			}
		case "BT":
			tm, tlm = identity, identity
		case "Tf":
			if len(args) == 2 {
				name := args[0].Name()
				if _, ok := fonts[name]; !ok {
					f, err := loadFont(rd, fontsDict.Key(name), total)
					if err != nil {
						failure = err
						return
					}
					fonts[name] = f
				}
				font, size = fonts[name], args[1].Float64()
			}
		case "Tc":
			if v, ok := nums(args, 1); ok {
				tc = v[0]
			}
		case "Tw":
			if v, ok := nums(args, 1); ok {
				tw = v[0]
			}
		case "Tz":
			if v, ok := nums(args, 1); ok {
				th = v[0] / 100
			}
		case "TL":
			if v, ok := nums(args, 1); ok {
				lead = v[0]
			}
		case "Td", "TD":
			if v, ok := nums(args, 2); ok {
				if op == "TD" {
					lead = -v[1]
				}
				tlm = matrix{1, 0, 0, 1, v[0], v[1]}.mul(tlm)
				tm = tlm
			}
		case "Tm":
			if v, ok := nums(args, 6); ok {
				tm = matrix{v[0], v[1], v[2], v[3], v[4], v[5]}
				tlm = tm
			}
		case "T*":
			tlm = matrix{1, 0, 0, 1, 0, -lead}.mul(tlm)
			tm = tlm
		case "Tj":
			if len(args) == 1 {
				show(args[0].RawString())
			}
		case "'", "\"":
			if op == "\"" && len(args) == 3 {
				tw, tc = args[0].Float64(), args[1].Float64()
				args = args[2:]
			}
			tlm = matrix{1, 0, 0, 1, 0, -lead}.mul(tlm)
			tm = tlm
			if len(args) == 1 {
				show(args[0].RawString())
			}
		case "TJ":
			if len(args) != 1 {
				return
			}
			a := args[0]
			for i := 0; i < a.Len(); i++ {
				v := a.Index(i)
				if v.Kind() == pdf.String {
					show(v.RawString())
					continue
				}
				n := v.Float64()
				tm = matrix{1, 0, 0, 1, -n / 1000 * size * th, 0}.mul(tm)
				if n < -180 {
					lb.space()
				}
			}
		}
	})
	if failure != nil {
		return nil, failure
	}
	lb.flush()
	return lines, nil
}

// lineBuilder joins shown strings into lines by baseline.
type lineBuilder struct {
	page          int
	lines         *[]pdfLine
	cur           strings.Builder
	has           bool
	y, x, endX    float64
	size          float64
	bold, pending bool
	lastY         float64
	hasLast       bool
}

func (l *lineBuilder) space() { l.pending = true }

func (l *lineBuilder) add(text string, x, y, endX, size float64, bold bool) {
	if strings.TrimSpace(text) == "" && !l.has {
		return
	}
	tol := 0.4 * math.Max(math.Max(size, l.size), 1)
	if l.has && math.Abs(y-l.y) <= tol {
		gap := x - l.endX
		cur := l.cur.String()
		if (l.pending || gap > 0.15*size || gap < -2*size) && !strings.HasSuffix(cur, " ") && !strings.HasPrefix(text, " ") {
			l.cur.WriteByte(' ')
		}
		l.pending = false
		l.cur.WriteString(text)
		l.endX = endX
		if strings.TrimSpace(text) != "" {
			l.bold = l.bold && bold
		}
		return
	}
	l.flush()
	l.has, l.y, l.x, l.endX, l.size, l.bold, l.pending = true, y, x, endX, size, bold, false
	l.cur.WriteString(text)
}

func (l *lineBuilder) flush() {
	if !l.has {
		return
	}
	text := oneLine(l.cur.String())
	l.cur.Reset()
	l.has = false
	if text == "" {
		return
	}
	gap := -1.0
	if l.hasLast {
		gap = math.Abs(l.lastY - l.y)
	}
	l.lastY, l.hasLast = l.y, true
	*l.lines = append(*l.lines, pdfLine{text: text, size: l.size, page: l.page, gap: gap, x: l.x, bold: l.bold})
}

// pageNumberRE matches a line that is only a page number ("12", "- 12 -", "Page 3 of 10",
// "Seite 3", "Sayfa 3/10" share the shape: a short word and digits).
var pageNumberRE = regexp.MustCompile(`^[\p{L}.]{0,6}\s*[-–]?\s*\d{1,4}\s*(?:[/|-]\s*\d{1,4}|\p{L}{1,4}\s+\d{1,4})?\s*[-–]?$`)

// bulletRE matches a list item's bullet.
var bulletRE = regexp.MustCompile(`^(?:[•●▪◦‣∙·\-–*]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s+`)

// pdfBlocks turns the lines into headings and paragraphs.
func pdfBlocks(b *body, lines []pdfLine) error {
	lines = dropRunning(lines)
	letters := 0
	sizes := map[float64]int{}
	for _, l := range lines {
		n := 0
		for _, r := range l.text {
			if unicode.IsLetter(r) {
				n++
			}
		}
		letters += n
		sizes[math.Round(l.size*2)/2] += n
	}
	if letters < 16 {
		return fail(CodeNoText, b.name, errors.New("no text layer"))
	}
	body := 0.0
	for s, n := range sizes {
		if n > sizes[body] || n == sizes[body] && s < body {
			body = s
		}
	}
	// Heading sizes, largest first, become levels 1–3; a short bold line of body size is
	// the level below them.
	var hs []float64
	for s := range sizes {
		if s >= body*1.15 {
			hs = append(hs, s)
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(hs)))
	levelOf := func(l pdfLine) int {
		n := utf8.RuneCountInString(l.text)
		if n > 120 || n < 2 || pageNumberRE.MatchString(l.text) {
			return 0
		}
		s := math.Round(l.size*2) / 2
		for i, h := range hs {
			if s == h {
				return min(i+1, 3)
			}
		}
		if l.bold && n <= 80 && !strings.ContainsAny(l.text[len(l.text)-1:], ".,;") {
			return min(len(hs), 3) + 1
		}
		return 0
	}
	var para strings.Builder
	var head strings.Builder
	headLevel := 0
	flushPara := func() error {
		t := para.String()
		para.Reset()
		return b.para(t)
	}
	flushHead := func() error {
		t := head.String()
		head.Reset()
		lv := headLevel
		headLevel = 0
		return b.heading(lv, t)
	}
	prevPage := 0
	for _, l := range lines {
		if lv := levelOf(l); lv > 0 {
			if err := flushPara(); err != nil {
				return err
			}
			if headLevel == lv && l.page == prevPage && l.gap >= 0 && l.gap < 2*l.size {
				head.WriteString(" " + l.text) // a heading wrapped over two lines
			} else {
				if err := flushHead(); err != nil {
					return err
				}
				head.WriteString(l.text)
				headLevel = lv
			}
			prevPage = l.page
			continue
		}
		if err := flushHead(); err != nil {
			return err
		}
		newPara := l.page != prevPage || l.gap < 0 || l.gap > 1.6*math.Max(l.size, 1)
		bullet := bulletRE.FindString(l.text)
		if newPara || bullet != "" {
			if err := flushPara(); err != nil {
				return err
			}
		}
		text := l.text
		if bullet != "" && !unicode.IsDigit([]rune(strings.TrimLeft(bullet, "("))[0]) && !unicode.IsLetter([]rune(strings.TrimLeft(bullet, "("))[0]) {
			text = "- " + strings.TrimSpace(text[len(bullet):])
		}
		if para.Len() > 0 {
			cur := para.String()
			if r, _ := utf8.DecodeRuneInString(text); strings.HasSuffix(cur, "-") && len(cur) > 1 &&
				unicode.IsLetter(rune(cur[len(cur)-2])) && unicode.IsLower(r) {
				para.Reset()
				para.WriteString(cur[:len(cur)-1]) // a word hyphenated at the line's end
			} else {
				para.WriteByte(' ')
			}
		}
		para.WriteString(text)
		prevPage = l.page
	}
	if err := flushPara(); err != nil {
		return err
	}
	return flushHead()
}

// dropRunning removes running headers and footers: a page's first or last line that, with
// its digits masked, is the first or last line of at least half the pages (three or more),
// and lines that are only a page number.
func dropRunning(lines []pdfLine) []pdfLine {
	mask := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return '#'
			}
			return r
		}, s)
	}
	first, last := map[int]int{}, map[int]int{}
	for i, l := range lines {
		if _, ok := first[l.page]; !ok {
			first[l.page] = i
		}
		last[l.page] = i
	}
	count := map[string]int{}
	for p := range first {
		seen := map[string]bool{mask(lines[first[p]].text): true, mask(lines[last[p]].text): true}
		for k := range seen {
			count[k]++
		}
	}
	pages := len(first)
	out := lines[:0]
	for i, l := range lines {
		edge := first[l.page] == i || last[l.page] == i
		if edge && pages >= 3 && count[mask(l.text)]*2 >= pages {
			continue
		}
		if pageNumberRE.MatchString(l.text) && utf8.RuneCountInString(l.text) <= 16 {
			continue
		}
		out = append(out, l)
	}
	return out
}
