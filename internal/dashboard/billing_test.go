package dashboard_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"svc/internal/store"
)

var billEntryRE = regexp.MustCompile(`<tr id="entry-(\d+)">`)

// billEntries are the ledger ids a billing page lists, in order.
func billEntries(t *testing.T, body string) []int64 {
	t.Helper()
	var ids []int64
	for _, m := range billEntryRE.FindAllStringSubmatch(body, -1) {
		id, _ := strconv.ParseInt(m[1], 10, 64)
		ids = append(ids, id)
	}
	return ids
}

// billLink is the pager link named label ("Newer", "Older"), "" when there is none.
func billLink(body, label string) string {
	re := regexp.MustCompile(`<a class="btn" href="([^"]+)">(?:← )?` + label + `(?: →)?</a>`)
	if m := re.FindStringSubmatch(body); m != nil {
		return html.UnescapeString(m[1])
	}
	return ""
}

// billLedgerIDs are the account's ledger ids as the store has them, newest first.
func billLedgerIDs(t *testing.T, h *harness, accountID int64) []int64 {
	t.Helper()
	entries, err := h.st.Ledger(context.Background(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, e := range entries {
		ids = append(ids, e.ID)
	}
	slices.Sort(ids)
	slices.Reverse(ids)
	return ids
}

func TestBillingShowsRatesUsageAndLedger(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, key, email, pw := h.tenant("Shop")
	ovSend(t, h, key, ovKnown, "ai")
	ovSend(t, h, key, ovNonsense, "fallback")
	ovSend(t, h, key, ovNonsense, "fallback")
	b := h.browser()
	b.signIn(email, pw)
	p := b.get("/dashboard/billing")
	if p.Status != http.StatusOK {
		t.Fatalf("billing: %d", p.Status)
	}
	entries, err := h.st.Ledger(context.Background(), a.ID)
	if err != nil || len(entries) != 2 {
		t.Fatalf("ledger: %v %+v", err, entries)
	}
	var charge store.LedgerEntry
	for _, e := range entries {
		if e.Kind == "charge" {
			charge = e
		}
	}
	// Four decimals, rounded half up, as the page shows single answers.
	four := func(micro int64) string { return fmt.Sprintf("$%d.%04d", micro/1_000_000, (micro%1_000_000+50)/100) }
	mustContain(t, p.Body,
		"$3.00 per 1M tokens", "$25.00 per 1M tokens", // the default rates
		"svc balance add --account "+strconv.FormatInt(a.ID, 10),
		`<th scope="row">AI answer</th><td class="num">1</td>`,
		`<th scope="row">Fallback</th><td class="num">2</td><td class="num">$0.00</td>`,
		`<th scope="row">Total, 30 days</th><td class="num">3</td>`,
		"2 entries in all, newest first",
		`<td class="num">+$5.0000</td>`, "<td>Opening balance</td>", "top-up",
		`<td class="num">-`+four(-charge.AmountMicro)+`</td>`,
		`href="/dashboard/billing/ledger.csv"`)
	if got := ovStat(t, p.Body, "Typical AI answer"); got != four(-charge.AmountMicro) {
		t.Errorf("typical answer: %q, want %s", got, four(-charge.AmountMicro))
	}
	if ids := billEntries(t, p.Body); !slices.Equal(ids, billLedgerIDs(t, h, a.ID)) {
		t.Errorf("ledger rows %v", ids)
	}
	if billLink(p.Body, "Older") != "" || billLink(p.Body, "Newer") != "" {
		t.Error("a pager on a one-page ledger")
	}
}

// TestBillingNotesAreInTheReadersLanguage: the notes svc writes in the ledger (the opening
// balance, `svc balance add`, `svc balance deduct --reason`) are stored as written and shown
// in the reader's language, with the operator's reason as typed; the developer page's
// "Intelligence API" is translated too.
func TestBillingNotesAreInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	ctx := context.Background()
	if _, err := h.accounts.AddBalance(ctx, a.ID, 2_000_000, store.LedgerNoteBalanceAdd); err != nil {
		t.Fatal(err)
	}
	if _, err := h.accounts.AddBalance(ctx, a.ID, -500_000, store.LedgerNoteDeduct+"order #7 <refunded>"); err != nil {
		t.Fatal(err)
	}
	b := h.browser()
	b.signIn(email, pw)
	for _, c := range []struct {
		lang  string
		want  []string
		intel string
	}{
		{"en", []string{"<td>Opening balance</td>", "<td>Added by the operator</td>", "<td>Taken back by the operator: order #7 &lt;refunded&gt;</td>"}, "Intelligence API"},
		{"tr", []string{"<td>Açılış bakiyesi</td>", "<td>Operatör tarafından eklendi</td>", "<td>Operatör tarafından geri alındı: order #7 &lt;refunded&gt;</td>"}, "Zekâ API&#39;si"},
		{"de", []string{"<td>Anfangsguthaben</td>", "<td>Vom Betreiber gutgeschrieben</td>", "<td>Vom Betreiber zurückgebucht: order #7 &lt;refunded&gt;</td>"}, "Intelligence-Schnittstelle"},
	} {
		if p := b.post("/dashboard/profile/lang", url.Values{"lang": {c.lang}}); p.Status != http.StatusSeeOther {
			t.Fatalf("set language %s: %d", c.lang, p.Status)
		}
		p := b.get("/dashboard/billing")
		if p.Status != http.StatusOK {
			t.Fatalf("%s billing: %d", c.lang, p.Status)
		}
		mustContain(t, p.Body, c.want...)
		for _, raw := range []string{"<td>opening balance", "<td>balance add", "<td>balance deduct"} {
			if strings.Contains(p.Body, raw) {
				t.Errorf("%s: the ledger shows the stored note %q", c.lang, raw)
			}
		}
		d := b.get("/dashboard/developer")
		mustContain(t, d.Body, c.intel)
		if c.lang != "en" && strings.Contains(d.Body, "Intelligence API") {
			t.Errorf("%s: the developer page says \"Intelligence API\"", c.lang)
		}
	}
	// The CSV keeps the notes as stored: it is for machines and bookkeeping.
	csvPage := b.get("/dashboard/billing/ledger.csv")
	mustContain(t, csvPage.Body, ",opening balance", ",balance add", ",balance deduct: order #7 <refunded>")
}

func TestBillingLedgerPagesWithoutGaps(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	other, _, _, _ := h.tenant("Neighbour")
	ctx := context.Background()
	// 130 entries, interleaved with the neighbour's so that the account's ids have holes.
	for i := range 129 {
		if _, err := h.accounts.AddBalance(ctx, a.ID, int64(1000+i), "top-up "+strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			if _, err := h.accounts.AddBalance(ctx, other.ID, 1, "neighbour"); err != nil {
				t.Fatal(err)
			}
		}
	}
	all := billLedgerIDs(t, h, a.ID)
	b := h.browser()
	b.signIn(email, pw)

	// Older, page after page, to the end.
	var pages [][]int64
	var seen []int64
	var urls []string
	next := "/dashboard/billing"
	for next != "" {
		urls = append(urls, next)
		p := b.get(next)
		if p.Status != http.StatusOK {
			t.Fatalf("GET %s: %d", next, p.Status)
		}
		ids := billEntries(t, p.Body)
		if len(ids) == 0 || len(ids) > 50 {
			t.Fatalf("GET %s: %d rows", next, len(ids))
		}
		if (len(pages) == 0) != (billLink(p.Body, "Newer") == "") {
			t.Errorf("GET %s: a Newer link only on the pages after the first: %q", next, billLink(p.Body, "Newer"))
		}
		pages = append(pages, ids)
		seen = append(seen, ids...)
		next = billLink(p.Body, "Older")
		if len(pages) > 10 {
			t.Fatal("the Older links do not end")
		}
	}
	if !slices.Equal(seen, all) {
		t.Fatalf("paging Older saw %d entries, the ledger has %d:\n%v\n%v", len(seen), len(all), seen, all)
	}
	if len(pages) != 3 || len(pages[0]) != 50 || len(pages[2]) != 30 {
		t.Errorf("page sizes: %d, %d…", len(pages), len(pages[0]))
	}

	// And back with Newer, through the same pages.
	p := b.get(urls[len(urls)-1])
	for i := len(pages) - 1; ; i-- {
		if ids := billEntries(t, p.Body); !slices.Equal(ids, pages[i]) {
			t.Fatalf("page %d going back: %v, want %v", i, ids, pages[i])
		}
		newer := billLink(p.Body, "Newer")
		if i == 0 {
			if newer != "" {
				t.Errorf("the newest page links to a newer one: %s", newer)
			}
			break
		}
		p = b.get(newer)
	}

	// A hand-made trail is ignored rather than followed.
	p = b.get("/dashboard/billing?before=" + strconv.FormatInt(pages[1][0]+1, 10) + "&trail=1,x")
	if p.Status != http.StatusOK || !slices.Equal(billEntries(t, p.Body), pages[1]) ||
		billLink(p.Body, "Newer") != "/dashboard/billing#ledger" {
		t.Errorf("forged trail: %d %q", p.Status, billLink(p.Body, "Newer"))
	}
}

func TestBillingLedgerCSV(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, key, email, pw := h.tenant("Shop")
	other, _, _, _ := h.tenant("Neighbour")
	ctx := context.Background()
	ovSend(t, h, key, ovKnown, "ai")
	notes := []string{"=HYPERLINK(\"http://evil\")", "+1", "@SUM(A1)", "\tTAB", "\rCR", "plain, with \"quotes\"\nand a line"}
	for _, n := range notes {
		if _, err := h.accounts.AddBalance(ctx, a.ID, 1_234_567, n); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.accounts.AddBalance(ctx, a.ID, -12_345, "-refund"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.accounts.AddBalance(ctx, other.ID, 7, "neighbour only"); err != nil {
		t.Fatal(err)
	}
	b := h.browser()
	b.signIn(email, pw)
	p := b.get("/dashboard/billing/ledger.csv")
	if p.Status != http.StatusOK || p.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		p.Header.Get("Content-Disposition") != fmt.Sprintf(`attachment; filename="ledger-%d.csv"`, a.ID) {
		t.Fatalf("csv: %d %q %q", p.Status, p.Header.Get("Content-Type"), p.Header.Get("Content-Disposition"))
	}
	rows, err := csv.NewReader(strings.NewReader(p.Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0], ","); got != "id,created_at,kind,amount_usd,balance_after_usd,message_id,note" {
		t.Fatalf("header: %s", got)
	}
	entries, err := h.st.Ledger(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]store.LedgerEntry{}
	for _, e := range entries {
		byID[strconv.FormatInt(e.ID, 10)] = e
	}
	if len(rows)-1 != len(entries) {
		t.Fatalf("%d rows for %d entries", len(rows)-1, len(entries))
	}
	amount := regexp.MustCompile(`^-?\d+\.\d{6}$`)
	notesSeen := map[string]string{}
	for i, r := range rows[1:] {
		e, ok := byID[r[0]]
		if !ok {
			t.Fatalf("row %v is not an entry of the account", r)
		}
		if id, prev := e.ID, byID[rows[i][0]].ID; i > 0 && id >= prev {
			t.Errorf("rows not newest first: %d after %d", id, prev)
		}
		at, err := time.Parse(time.RFC3339, r[1])
		if err != nil || !strings.HasSuffix(r[1], "Z") || !at.Equal(e.CreatedAt.Truncate(time.Second)) {
			t.Errorf("created_at %q for %v", r[1], e.CreatedAt)
		}
		if r[2] != e.Kind || !amount.MatchString(r[3]) || !amount.MatchString(r[4]) {
			t.Errorf("row %v", r)
		}
		wantMsg := ""
		if e.MessageID != 0 {
			wantMsg = strconv.FormatInt(e.MessageID, 10)
		}
		if r[5] != wantMsg {
			t.Errorf("message_id %q, want %q", r[5], wantMsg)
		}
		notesSeen[e.Note] = r[6]
		if e.Note == "-refund" && (r[3] != "-0.012345" || r[2] != "topup") {
			t.Errorf("refund row %v", r)
		}
		if e.Note == "+1" && r[3] != "1.234567" {
			t.Errorf("top-up row %v", r)
		}
		if e.Kind == "charge" && (!strings.HasPrefix(r[3], "-0.") || r[5] == "") {
			t.Errorf("charge row %v", r)
		}
	}
	// Formula injection: every cell a spreadsheet would evaluate starts with an apostrophe.
	for note, want := range map[string]string{
		notes[0]: "'" + notes[0], "+1": "'+1", "@SUM(A1)": "'@SUM(A1)", "\tTAB": "'\tTAB", "\rCR": "'\rCR",
		notes[5]: notes[5], "-refund": "'-refund", "opening balance": "opening balance",
	} {
		if got, ok := notesSeen[note]; !ok || got != want {
			t.Errorf("note %q exported as %q, want %q", note, got, want)
		}
	}
	if strings.Contains(p.Body, "neighbour only") {
		t.Error("another account's entry in the export")
	}
}

func TestBillingLedgerCSVStreamsPastOnePage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	ctx := context.Background()
	// The export reads 1,000 entries at a time: 1,100 cross a page boundary.
	for i := range 1099 {
		if _, err := h.accounts.AddBalance(ctx, a.ID, 1, "t"+strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	b := h.browser()
	b.signIn(email, pw)
	p := b.get("/dashboard/billing/ledger.csv")
	rows, err := csv.NewReader(strings.NewReader(p.Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, r := range rows[1:] {
		id, _ := strconv.ParseInt(r[0], 10, 64)
		got = append(got, id)
	}
	if want := billLedgerIDs(t, h, a.ID); !slices.Equal(got, want) {
		t.Fatalf("export has %d entries, the ledger %d", len(got), len(want))
	}
}
