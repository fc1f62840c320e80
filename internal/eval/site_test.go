package eval

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/demo"
	"svc/internal/engine"
	"svc/internal/kb"
	"svc/internal/store"
	"svc/internal/store/sqlite"
)

func TestReadQuestions(t *testing.T) {
	t.Parallel()
	good := `{"question":"Was kostet der Versand?","lang":"de","expect":"9,90"}

{"question":"Kestrel X2 Pro ne kadar?","lang":"tr","product":"Kestrel X2 Pro"}
{"question":"What is the best way to back up?","lang":"en","expect":"SEED","no_product":true}
{"question":"Do you offer gift wrapping?","lang":"en","decline":true,"no_product":true}
`
	qs, err := ReadQuestions(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 4 || qs[0].Line != 1 || qs[1].Line != 3 || qs[2].Line != 4 || !qs[2].NoProduct || qs[1].Product != "Kestrel X2 Pro" ||
		!qs[3].Decline || qs[2].Decline {
		t.Fatalf("questions %+v", qs)
	}
	// expect is matched case-insensitively.
	if !qs[2].re.MatchString("write down your seed") {
		t.Error("expect is not case-insensitive")
	}
	for _, c := range []struct{ file, want string }{
		{`{"question":"a","lang":"en","expect":"x"}` + "\n" + `{"question":"b","lang":"fr","expect":"x"}`, `line 2: "lang" must be tr, en or de`},
		{`{"question":"a","lang":"en","expect":"(x"}`, `line 1: "expect" is not a regular expression`},
		{`{"question":"","lang":"en","expect":"x"}`, `line 1: "question" is missing`},
		{`{"question":"a","lang":"en"}`, `line 1: give "expect", "product", "no_product" or "decline"`},
		{`{"question":"a","lang":"en","decline":false}`, `line 1: give "expect"`},
		{`{"question":"a","lang":"en","expect":"x"}` + "\n" + `{"question":"b","lang":"en","decline":true,"expect":"x"}`, `line 2: "decline" and "expect" or "product" contradict`},
		{`{"question":"a","lang":"en","decline":true,"product":"P"}`, `line 1: "decline" and "expect" or "product" contradict`},
		{`{"question":"a","lang":"en","product":"P","no_product":true}`, `contradict`},
		{`{"question":"a","lang":"en","expected":"x"}`, `line 1: not a question object: json: unknown field "expected"`},
		{`{"question":"a","lang":"en","expect":"x"} {}`, `line 1: more than one JSON value`},
		{`not json`, `line 1: not a question object`},
		{"\n\n", `no questions`},
		{`{"question":"` + strings.Repeat("a", 2001) + `","lang":"en","expect":"x"}`, `line 1: "question" is longer than a message may be`},
		{`{"question":"a","lang":"en","expect":"x"}` + "\n" + `{"question":"a\u0000b","lang":"en","expect":"x"}`, `line 2: "question" contains a NUL character`},
	} {
		if _, err := ReadQuestions(strings.NewReader(c.file)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.file, err, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	qs, err := ReadQuestions(strings.NewReader(`{"question":"q","lang":"en","expect":"299","product":"Kestrel X2 Lite"}
{"question":"q","lang":"en","expect":"seed","no_product":true}`))
	if err != nil {
		t.Fatal(err)
	}
	lite := store.Message{Body: "It costs $299.00.", Products: []store.Product{{Name: "kestrel x2 lite "}, {Name: "Kestrel X2 Pro"}}}
	pro := store.Message{Body: "It costs $299.00.", Products: []store.Product{{Name: "Kestrel X2 Pro"}, {Name: "Kestrel X2 Lite"}}}
	if why := check(qs[0], lite); len(why) != 1 || !strings.Contains(why[0], "came with other cards: Kestrel X2 Pro") {
		t.Errorf("right variant with its sibling: %v", why)
	}
	alone := store.Message{Body: "It costs $299.00.", Products: []store.Product{{Name: "kestrel x2 lite "}}}
	if why := check(qs[0], alone); len(why) != 0 {
		t.Errorf("right variant alone: %v", why)
	}
	if why := check(qs[0], pro); len(why) != 1 || !strings.Contains(why[0], "first card is Kestrel X2 Pro") {
		t.Errorf("sibling first: %v", why)
	}
	bottle := store.Message{Body: "Write down your seed.", Products: []store.Product{{Name: "Trail water bottle"}}}
	if why := check(qs[1], bottle); len(why) != 1 || !strings.Contains(why[0], "must get none") {
		t.Errorf("stray card: %v", why)
	}
}

// A measurement writes nothing: no message, no charge, no reservation, no cache entry, and
// the balance stays as it was; asked twice, the same questions get the same replies.
func TestSiteWritesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	name, bal := "Demo", int64(1_000_000)
	a, _, err := account.New(st, nil).Create(ctx, account.Settings{Name: &name, BalanceMicro: &bal})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kb.Import(ctx, st, a.ID, 0, demo.Reader()); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(st, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	qs, err := ReadQuestions(strings.NewReader(`{"question":"Was kostet der Versand nach Deutschland?","lang":"de","expect":"9,90 €"}
{"question":"How much is shipping within Turkey?","lang":"en","expect":"89,90 TL"}
{"question":"How much is the Kaçkar Pro boot?","lang":"en","product":"Kaçkar Pro Trekking Boot"}
{"question":"Merhaba!","lang":"tr","expect":"."}
{"question":"How much is shipping within Turkey?","lang":"en","expect":"this will not match"}
{"question":"Do you offer gift wrapping?","lang":"en","decline":true}`))
	if err != nil {
		t.Fatal(err)
	}
	first, err := Site(ctx, st, eng, a.ID, qs, SiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Site(ctx, st, eng, a.ID, qs, SiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, again) {
		t.Errorf("two runs differ:\n%+v\n%+v", first, again)
	}
	// Line 6 is a question the demo does not answer: whether the engine declines it is the
	// measurement's business, not this test's, so the counts allow either.
	declined := 0
	if len(first.Langs) == 3 {
		declined = first.Langs[1].Declines
	}
	if first.Questions != 6 || first.Hits != 4+declined || len(first.Misses) != 2-declined || first.Misses[0].Line != 5 || first.Misses[0].Reply == "" {
		t.Errorf("report %+v", first)
	}
	// Each language once, in the order tr, en, de; each half of it beside it.
	var langs, halves []string
	for _, l := range first.Langs {
		langs = append(langs, l.Lang+l.Half)
	}
	for _, h := range first.Halves {
		halves = append(halves, h.Lang+" "+h.Half)
	}
	if !reflect.DeepEqual(langs, []string{"tr", "en", "de"}) || !reflect.DeepEqual(halves, []string{"tr confirm", "en tune", "en confirm", "de tune"}) {
		t.Errorf("lines %v, halves %v", langs, halves)
	}
	if en := first.Langs[1]; en.Answerable != 3 || en.Unanswerable != 1 || en.AnswerableHits != 2 || en.AnsweredWrong != 1 {
		t.Errorf("en line %+v", en)
	}
	var b strings.Builder
	if err := WriteSiteTable(&b, first); err != nil || !strings.Contains(b.String(), "MISS line 5 [en]") || !strings.Contains(b.String(), "  en  confirm  ") {
		t.Errorf("table: %v\n%s", err, b.String())
	}
	all, err := Site(ctx, st, eng, a.ID, qs, SiteOptions{AllReplies: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Replies) != 6 || len(all.Replies[0].Why) != 0 || all.Replies[0].Reply == "" || !reflect.DeepEqual(all.Misses, first.Misses) {
		t.Errorf("all replies: %+v", all.Replies)
	}

	after, err := st.GetAccount(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.BalanceMicro != bal || after.ReservedMicro != 0 {
		t.Errorf("balance %d, reserved %d after a measurement; want %d, 0", after.BalanceMicro, after.ReservedMicro, bal)
	}
	usage, err := st.UsageSummary(ctx, a.ID, time.Time{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if usage.AllTimeCount != 0 {
		t.Errorf("%d usage events recorded by a measurement", usage.AllTimeCount)
	}
	conv, err := st.OpenConversation(ctx, a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	// The answer cache is written only with a turn (store.Turn.Cache), so no message also
	// means no cache entry.
	if msgs, err := st.LastMessages(ctx, a.ID, conv.ID, 10); err != nil || len(msgs) != 0 {
		t.Errorf("the account's conversation holds %d messages after a measurement (%v)", len(msgs), err)
	}
}

// A declined question passes only with the fallback; an answerable one fails on the fallback
// even when its text matches expect.
func TestCheckDecline(t *testing.T) {
	t.Parallel()
	qs, err := ReadQuestions(strings.NewReader(`{"question":"Do you offer gift wrapping?","lang":"en","decline":true}
{"question":"Do you ship abroad?","lang":"en","expect":"."}`))
	if err != nil {
		t.Fatal(err)
	}
	fallback := store.Message{Body: "I could not find an answer to that.", Source: store.SourceFallback, LowConfidence: true}
	answer := store.Message{Body: "We ship worldwide.", Source: store.SourceAI}
	carded := store.Message{Body: "We ship worldwide.", Source: store.SourceAI, Products: []store.Product{{Name: "Tent"}}}
	for _, c := range []struct {
		q     int
		reply store.Message
		want  []string // substrings of the reasons, in order; none: a hit
	}{
		{0, fallback, nil},
		{0, answer, []string{"expected the fallback"}},
		{0, carded, []string{"expected the fallback", "must get the fallback"}},
		{1, answer, nil},
		{1, fallback, []string{"low-confidence reply (fallback)"}},
	} {
		why := check(qs[c.q], c.reply)
		ok := len(why) == len(c.want)
		for i := 0; ok && i < len(why); i++ {
			ok = strings.Contains(why[i], c.want[i])
		}
		if !ok {
			t.Errorf("question %d, reply %q: why %q, want %q", c.q, c.reply.Body, why, c.want)
		}
	}
}

// A report line counts each question once, answerable apart from declined; HalfOf puts odd
// lines in the tuning half and even lines in the confirming half.
func TestSiteLangReportAdd(t *testing.T) {
	t.Parallel()
	qs, err := ReadQuestions(strings.NewReader(`{"question":"a","lang":"en","expect":"ship"}
{"question":"b","lang":"en","expect":"ship"}
{"question":"c","lang":"en","expect":"ship"}
{"question":"d","lang":"en","decline":true}
{"question":"e","lang":"en","decline":true}`))
	if err != nil {
		t.Fatal(err)
	}
	fallback := store.Message{Body: "No answer.", Source: store.SourceFallback, LowConfidence: true}
	right := store.Message{Body: "We ship.", Source: store.SourceAI}
	wrong := store.Message{Body: "We sell tents.", Source: store.SourceAI}
	replies := []store.Message{right, wrong, fallback, fallback, right}
	all := SiteLangReport{Lang: "en"}
	halves := map[string]*SiteLangReport{HalfTune: {}, HalfConfirm: {}}
	for i, q := range qs {
		hit := len(check(q, replies[i])) == 0
		all.add(q, replies[i], hit)
		halves[HalfOf(q.Line)].add(q, replies[i], hit)
	}
	all.finish()
	want := SiteLangReport{Lang: "en", Questions: 5, Hits: 2, HitRate: 0.4, Answerable: 3, AnswerableHits: 1, AnsweredWrong: 1,
		Unanswerable: 2, Declines: 1, DeclineRate: 0.5, Fallbacks: 2, MeanReplyChars: 50.0 / 5, chars: 50}
	if all != want {
		t.Errorf("line\n got %+v\nwant %+v", all, want)
	}
	if tune, confirm := halves[HalfTune], halves[HalfConfirm]; tune.Questions != 3 || tune.AnswerableHits != 1 || tune.Unanswerable != 1 ||
		tune.Declines != 0 || confirm.Questions != 2 || confirm.AnsweredWrong != 1 || confirm.Declines != 1 {
		t.Errorf("halves: tune %+v, confirm %+v", tune, confirm)
	}
}
