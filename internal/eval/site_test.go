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
`
	qs, err := ReadQuestions(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 3 || qs[0].Line != 1 || qs[1].Line != 3 || qs[2].Line != 4 || !qs[2].NoProduct || qs[1].Product != "Kestrel X2 Pro" {
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
		{`{"question":"a","lang":"en"}`, `line 1: give "expect", "product" or "no_product"`},
		{`{"question":"a","lang":"en","product":"P","no_product":true}`, `contradict`},
		{`{"question":"a","lang":"en","expected":"x"}`, `line 1: not a question object: json: unknown field "expected"`},
		{`{"question":"a","lang":"en","expect":"x"} {}`, `line 1: more than one JSON value`},
		{`not json`, `line 1: not a question object`},
		{"\n\n", `no questions`},
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
	if why := check(qs[0], lite); len(why) != 0 {
		t.Errorf("right variant first: %v", why)
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
{"question":"How much is shipping within Turkey?","lang":"en","expect":"this will not match"}`))
	if err != nil {
		t.Fatal(err)
	}
	first, err := Site(ctx, st, eng, a.ID, qs)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Site(ctx, st, eng, a.ID, qs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, again) {
		t.Errorf("two runs differ:\n%+v\n%+v", first, again)
	}
	if first.Questions != 5 || first.Hits != 4 || len(first.Misses) != 1 || first.Misses[0].Line != 5 || first.Misses[0].Reply == "" {
		t.Errorf("report %+v", first)
	}
	var b strings.Builder
	if err := WriteSiteTable(&b, first); err != nil || !strings.Contains(b.String(), "MISS line 5 [en]") {
		t.Errorf("table: %v\n%s", err, b.String())
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
