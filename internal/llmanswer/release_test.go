package llmanswer

import (
	"context"
	"strings"
	"testing"
	"time"

	"svc/internal/engine"
	"svc/internal/llm/llmtest"
)

// streamed is what a caller saw of a streamed answer: every piece, and the text they make
// with each replace applied.
type streamed struct {
	pieces []engine.Piece
	text   string
}

func (s *streamed) take(p engine.Piece) {
	s.pieces = append(s.pieces, p)
	if p.Replace {
		s.text = p.Text
	} else {
		s.text += p.Text
	}
}

// askStreamed asks like ask, streaming, in Sales Mode as ask does.
func (f *fixture) askStreamed(question, lg string) (engine.Answer, *streamed) {
	f.t.Helper()
	s := &streamed{}
	a, err := f.eng.Answer(context.Background(), engine.Request{AccountID: f.acct, Question: question, Lang: lg,
		Business: "Yolcu Outdoor", SalesMode: true, Stream: s.take})
	if err != nil {
		f.t.Fatal(err)
	}
	return a, s
}

// replyWith scripts the reply sub-call to write text, streamed at a token a millisecond.
func replyWith(text string) script {
	return script{"reply": func(llmtest.Call) llmtest.Step {
		return llmtest.Step{Text: text, InputTokens: usage["reply"][0], OutputTokens: usage["reply"][1], TokenInterval: time.Millisecond}
	}}
}

// The streamed reply is released sentence by sentence, and what was released is the answer,
// which is the unstreamed answer to the same model output: same text, same calls, same usage.
func TestStreamedReplyEqualsTheUnstreamedOne(t *testing.T) {
	tests := []struct {
		name, question, lang string
		s                    script
	}{
		{"faithful", "How long does delivery to Germany take?", "en", script{}},
		{"citations mid-text and lines", "How much does the Kaçkar Pro Trekking Boot cost?", "en",
			replyWith("The Kaçkar Pro Trekking Boot costs $129.00 [1]. It is waterproof.\n\nAsk us anything else! [1][2]")},
		{"german abbreviation", "Was kostet der Kaçkar Pro Trekkingstiefel?", "de",
			replyWith("Der Kaçkar Pro Trekkingstiefel kostet z. B. 119,90 €. Er ist wasserdicht. [1]")},
	}
	for _, tc := range tests {
		for _, proto := range protocols {
			t.Run(tc.name+"/"+proto, func(t *testing.T) {
				f := newFixture(t, proto, tc.s)
				plain := f.ask(tc.question, tc.lang)
				a, s := f.askStreamed(tc.question, tc.lang)
				if !a.Confident || a.Degraded || a.Text != plain.Text || s.text != a.Text {
					t.Fatalf("streamed %q\nreleased %q\nunstreamed %q", a.Text, s.text, plain.Text)
				}
				if a.InputTokens != plain.InputTokens || a.OutputTokens != plain.OutputTokens || len(a.Calls) != len(plain.Calls) {
					t.Errorf("usage %d/%d in %d calls, unstreamed %d/%d in %d", a.InputTokens, a.OutputTokens, len(a.Calls),
						plain.InputTokens, plain.OutputTokens, len(plain.Calls))
				}
				if len(s.pieces) < 2 {
					t.Errorf("one piece: %+v", s.pieces)
				}
				for _, p := range s.pieces {
					if p.Replace || strings.Contains(p.Text, "[1]") {
						t.Errorf("piece %+v", p)
					}
				}
				if call := f.srv.Calls()[len(f.srv.Calls())-2]; !call.Stream || subCall(call) != "reply" {
					t.Errorf("the reply was not streamed: %+v", call)
				}
			})
		}
	}
}

// Text the guard takes out is never released: a sentence with a price the context lacks makes
// the reply the fallback, and the price is in no piece; what was released is replaced.
func TestInventedPriceIsNeverReleased(t *testing.T) {
	tests := []struct {
		name, reply string
		replaced    bool
	}{
		{"in the second sentence", "The Kaçkar Pro Trekking Boot costs $129.00. Today only it is 13.37 dollars off. [1]", true},
		{"in the first sentence", "The Kaçkar Pro Trekking Boot costs $13.37 today. It is waterproof. [1]", false},
		{"spanning pieces", "The Kaçkar Pro Trekking Boot is waterproof.\nIt costs $1,337.99 with the discount code X7. [1]", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, llmtest.ProtocolOpenAI, replyWith(tc.reply))
			a, s := f.askStreamed("How much does the Kaçkar Pro Trekking Boot cost?", "en")
			fallback := engine.FallbackText("en", "")
			if a.Confident || a.Text != fallback || s.text != fallback {
				t.Fatalf("answer %q, released %q", a.Text, s.text)
			}
			for _, p := range s.pieces {
				if strings.Contains(p.Text, "13") || strings.Contains(p.Text, "$1,337") || strings.Contains(p.Text, "X7") {
					t.Fatalf("the invented price was released: %+v", s.pieces)
				}
			}
			last := s.pieces[len(s.pieces)-1]
			if last.Replace != tc.replaced || len(s.pieces) != map[bool]int{true: 2, false: 1}[tc.replaced] {
				t.Errorf("pieces %+v", s.pieces)
			}
			if got := callNames(a); len(got) != 1 || got[0] != "reply" {
				t.Errorf("calls %v: the check has nothing to check", got)
			}
		})
	}
}

// A sentence NameGuard changes is released changed: a product outside the cards is dropped
// from the stream as from the unstreamed reply, and the sentences around it keep their order.
func TestNameGuardedSentenceIsReleasedChanged(t *testing.T) {
	reply := "The Kaçkar Pro Trekking Boot costs $129.00. The Poyraz Rain Jacket goes well with it.\nIt is waterproof. [1]"
	f := newFixture(t, llmtest.ProtocolOpenAI, replyWith(reply))
	plain := f.ask("How much does the Kaçkar Pro Trekking Boot cost?", "en")
	a, s := f.askStreamed("How much does the Kaçkar Pro Trekking Boot cost?", "en")
	if !a.Confident || a.Text != plain.Text || s.text != a.Text {
		t.Fatalf("streamed %q\nreleased %q\nunstreamed %q", a.Text, s.text, plain.Text)
	}
	body, _, _ := strings.Cut(a.Text, "\nSource:")
	if body != "The Kaçkar Pro Trekking Boot costs $129.00.\nIt is waterproof." {
		t.Fatalf("body %q", body)
	}
	for _, p := range s.pieces {
		if strings.Contains(p.Text, "Poyraz") || p.Replace {
			t.Fatalf("piece %+v", p)
		}
	}
}

// The check can still decline a reply whose sentences were released: the stream ends with a
// replace by the fallback, and the answer is the fallback, as unstreamed.
func TestCheckFailureReplacesTheRelease(t *testing.T) {
	f := newFixture(t, llmtest.ProtocolAnthropic, script{
		"reply": replyWith("Delivery to Germany takes 5 business days. Tracking is included. [1]")["reply"],
		"check": func(llmtest.Call) llmtest.Step {
			return llmtest.Step{Text: `{"supported": false, "unsupported": ["tracking"]}`}
		},
	})
	a, s := f.askStreamed("How long does delivery to Germany take?", "en")
	fallback := engine.FallbackText("en", "")
	if a.Confident || a.Text != fallback || s.text != fallback {
		t.Fatalf("answer %q, released %q", a.Text, s.text)
	}
	n := len(s.pieces)
	if n < 2 || !s.pieces[n-1].Replace || s.pieces[0].Replace || !strings.Contains(s.pieces[0].Text, "Germany") {
		t.Fatalf("pieces %+v", s.pieces)
	}
	if got := callNames(a); len(got) != 2 {
		t.Errorf("calls %v: a declined reply still records its calls", got)
	}
}

// NO_ANSWER is never released: the fallback is.
func TestNoAnswerReleasesOnlyTheFallback(t *testing.T) {
	for _, reply := range []string{noAnswer, "NO_ANSWER.", "Sorry. " + noAnswer} {
		f := newFixture(t, llmtest.ProtocolOpenAI, replyWith(reply))
		a, s := f.askStreamed("How long does delivery to Germany take?", "en")
		fallback := engine.FallbackText("en", "")
		if a.Text != fallback || s.text != fallback {
			t.Fatalf("%q: answer %q, released %q", reply, a.Text, s.text)
		}
		for _, p := range s.pieces {
			if strings.Contains(p.Text, "NO_") {
				t.Fatalf("%q: released %+v", reply, s.pieces)
			}
		}
	}
}

// A provider that breaks off mid-stream is a provider failure as before: the built-in engine
// answers (Degraded, free); what was released is the caller's to replace (chat does).
func TestBrokenStreamDegrades(t *testing.T) {
	f := newFixture(t, llmtest.ProtocolOpenAI, script{"reply": func(c llmtest.Call) llmtest.Step {
		return llmtest.Step{Text: "Delivery to Germany takes 5 business days. More follows here.", CutAfter: 14}
	}})
	a, s := f.askStreamed("How long does delivery to Germany take?", "en")
	if !a.Degraded || len(a.Calls) != 0 || !strings.Contains(a.Text, "5") {
		t.Fatalf("answer %+v", a)
	}
	if !strings.Contains(s.text, "Germany") || strings.Contains(s.text, "More") {
		t.Fatalf("released %q", s.text)
	}
}
