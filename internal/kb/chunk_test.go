package kb

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestChunkBlocks(t *testing.T) {
	sentence := "The tent sleeps two people and weighs two kilograms. "
	long := strings.Repeat(sentence, 60) // ~3,200 characters, one paragraph
	longHeading := strings.TrimSpace(strings.Repeat("Long heading. ", 100))
	tests := []struct {
		name         string
		blocks       []block
		wantHeadings []string
		wantTexts    []string // "" = do not check
	}{
		{
			name:         "small paragraphs merge under the title",
			blocks:       []block{{text: "One."}, {text: "Two."}},
			wantHeadings: []string{"Title"},
			wantTexts:    []string{"One.\nTwo."},
		},
		{
			name: "headings start chunks and are carried",
			blocks: []block{{text: "Intro."}, {heading: true, text: "Domestic"}, {text: "2 days."},
				{heading: true, text: "Germany"}, {text: "5 days."}},
			wantHeadings: []string{"Title", "Domestic", "Germany"},
			wantTexts:    []string{"Intro.", "2 days.", "5 days."},
		},
		{
			name:         "title repeated as first heading is not a section",
			blocks:       []block{{heading: true, text: "Title"}, {text: "Body."}},
			wantHeadings: []string{"Title"},
			wantTexts:    []string{"Body."},
		},
		{
			name:         "consecutive headings form a path, trailing heading kept",
			blocks:       []block{{heading: true, text: "Shipping"}, {heading: true, text: "Express"}, {text: "1 day."}, {heading: true, text: "Free returns"}},
			wantHeadings: []string{"Shipping › Express", "Free returns"},
			wantTexts:    []string{"1 day.", "Free returns"},
		},
		{
			// The page's one <h1> heads no path; an <h2>'s subsections lie in it, whether
			// they follow it at once or after its own text.
			name: "subsections lie in their section's path",
			blocks: []block{{heading: true, level: 1, text: "FAQ"}, {text: "Intro."},
				{heading: true, level: 2, text: "General"}, {heading: true, level: 3, text: "Who?"}, {text: "Us."},
				{heading: true, level: 3, text: "What?"}, {text: "Tents."},
				{heading: true, level: 2, text: "Who owns it?"}, {text: "Beginning"},
				{heading: true, level: 3, text: "Ada and Bo"}, {text: "They do."},
				{heading: true, level: 2, text: "Legal"}, {text: "Yes."}},
			wantHeadings: []string{"FAQ", "General › Who?", "General › What?",
				"Who owns it?", "Who owns it? › Ada and Bo", "Legal"},
			wantTexts: []string{"Intro.", "Us.", "Tents.",
				"Beginning", "They do.", "Yes."},
		},
		{
			name: "several headings of the outermost level are sections",
			blocks: []block{{heading: true, level: 1, text: "Tents"}, {heading: true, level: 2, text: "Sizes"}, {text: "Two."},
				{heading: true, level: 1, text: "Boots"}, {text: "Leather."}},
			wantHeadings: []string{"Tents › Sizes", "Boots"},
			wantTexts:    []string{"Two.", "Leather."},
		},
		{
			name:         "a body that is only the title still makes a chunk",
			blocks:       []block{{heading: true, text: "Title"}},
			wantHeadings: []string{"Title"},
			wantTexts:    []string{"Title"},
		},
		{
			name:         "a trailing heading as long as a paragraph is cut like one",
			blocks:       []block{{text: "Intro."}, {heading: true, text: longHeading}},
			wantHeadings: []string{"Title", longHeading, longHeading},
			wantTexts:    []string{"Intro.", "", ""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := chunkBlocks("Title", tt.blocks)
			if len(got) != len(tt.wantHeadings) {
				t.Fatalf("got %d chunks %q, want %d", len(got), got, len(tt.wantHeadings))
			}
			for i, p := range got {
				if p.heading != tt.wantHeadings[i] {
					t.Errorf("chunk %d heading = %q, want %q", i, p.heading, tt.wantHeadings[i])
				}
				if tt.wantTexts[i] != "" && p.text != tt.wantTexts[i] {
					t.Errorf("chunk %d text = %q, want %q", i, p.text, tt.wantTexts[i])
				}
			}
		})
	}

	t.Run("sizes bounded", func(t *testing.T) {
		var blocks []block
		blocks = append(blocks, block{heading: true, text: "Tents"})
		for range 30 {
			blocks = append(blocks, block{text: strings.TrimSpace(sentence + sentence)})
		}
		blocks = append(blocks, block{text: long}, block{text: strings.Repeat("x", 2500)})
		got := chunkBlocks("Title", blocks)
		total := 0
		for i, p := range got {
			n := utf8.RuneCountInString(p.text)
			total += n
			if n > chunkMax {
				t.Errorf("chunk %d has %d characters, max %d", i, n, chunkMax)
			}
			if p.heading != "Tents" {
				t.Errorf("chunk %d heading = %q, want Tents", i, p.heading)
			}
			if strings.Contains(p.text, sentence) && n < 100 {
				t.Errorf("chunk %d is a tiny fragment: %q", i, p.text)
			}
		}
		if len(got) < 8 {
			t.Errorf("got %d chunks, want the ~8,000 characters split into at least 8", len(got))
		}
		// Merged paragraphs stay near the target rather than one paragraph a chunk.
		if n := utf8.RuneCountInString(got[0].text); n < chunkTarget/2 || n > chunkTarget {
			t.Errorf("first chunk has %d characters, want merged up to about %d", n, chunkTarget)
		}
		for _, p := range got {
			if strings.Contains(p.text, "kilograms") && !strings.HasSuffix(p.text, "kilograms.") {
				t.Errorf("sentence text not cut at a sentence end: ...%q", p.text[len(p.text)-20:])
			}
		}
	})
}

func TestSentences(t *testing.T) {
	got := sentences(`Price is 2.029,00 TL. Really? Yes! "Quoted." Done…  end`)
	want := []string{"Price is 2.029,00 TL.", "Really?", "Yes!", `"Quoted."`, "Done…", "end"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sentences = %q, want %q", got, want)
	}
}

func TestTruncateWords(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short text", 160, "short text"},
		{"Boots can be returned within thirty days, free of charge", 30, "Boots can be returned within…"},
		{"Ayakkabıların iadesi otuz gün içinde ücretsizdir", 25, "Ayakkabıların iadesi…"},
	}
	for _, tt := range tests {
		got := truncateWords(tt.in, tt.n)
		if got != tt.want {
			t.Errorf("truncateWords(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
		if utf8.RuneCountInString(got) > tt.n {
			t.Errorf("truncateWords(%q, %d) is %d characters long", tt.in, tt.n, utf8.RuneCountInString(got))
		}
	}
}
