package dashboard

import (
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"svc/internal/billing"
	"svc/internal/store"
)

var pageBilling = page{name: "billing", title: "nav.billing", nav: "billing"}

// billingStore is what the billing page and the ledger export read. The usage table sums
// DailyUsage, the overview's read of the store's daily totals, rather than UsageSummary,
// which scans every usage event of the window and of all time: 50 to 100 ms at 100,000
// messages, against a few for the daily totals.
type billingStore interface {
	DailyUsage(ctx context.Context, accountID int64, since time.Time) ([]store.DayUsage, error)
	AverageCost(ctx context.Context, accountID int64, n int) (avg int64, ok bool, err error)
	LedgerPage(ctx context.Context, accountID, beforeID int64, limit int) ([]store.LedgerEntry, int, error)
}

const (
	ledgerPerPage = 50
	// typicalOf is how many recent answers the typical answer cost averages.
	typicalOf = 50
	// maxTrail bounds the "Newer" trail a ledger link carries (see ledgerKeys).
	maxTrail = 20
)

func (s *Server) billingRoutes(rt router) {
	rt.handle("GET /dashboard/billing", ownerOnly, s.billingPage)
	rt.handle("GET /dashboard/billing/ledger.csv", ownerOnly, s.ledgerCSV)
}

type billingData struct {
	AccountID             int64
	Balance, Reserved     int64
	InputRate, OutputRate int64
	TypicalCost           int64
	HasTypical            bool
	TypicalOf             int
	Usage                 []usageRow
	UsageTotal            store.EventTotal // the 30 days' events and their cost
	Ledger                []ledgerRow
	LedgerTotal           int
	// Newer and Older are the pager's links ("" when there is no such page).
	Newer, Older string
}

type usageRow struct {
	Label string
	store.EventTotal
}

type ledgerRow struct {
	store.LedgerEntry
	KindLabel string
	NoteText  string
}

func (s *Server) billingPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	ctx := r.Context()
	id := c.Account.ID
	keys := parseLedgerKeys(r.URL.Query())
	// Usage is counted over the same 30 UTC days as the overview's charts.
	since := s.now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -(overviewDays - 1))
	days, err := s.st.DailyUsage(ctx, id, since)
	if err != nil {
		return err
	}
	avg, ok, err := s.st.AverageCost(ctx, id, typicalOf)
	if err != nil {
		return err
	}
	// One entry more than shown tells whether an older page exists.
	entries, total, err := s.st.LedgerPage(ctx, id, keys.before, ledgerPerPage+1)
	if err != nil {
		return err
	}
	d := billingData{AccountID: id, Balance: c.Account.BalanceMicro, Reserved: c.Account.ReservedMicro,
		InputRate: c.Account.InputRate, OutputRate: c.Account.OutputRate, TypicalCost: avg, HasTypical: ok, TypicalOf: typicalOf,
		LedgerTotal: total}
	byType := map[string]store.EventTotal{}
	for _, u := range days {
		e := byType[u.EventType]
		e.Count += u.Count
		e.CostMicro += u.CostMicro
		byType[u.EventType] = e
		d.UsageTotal.Count += u.Count
		d.UsageTotal.CostMicro += u.CostMicro
	}
	for t, e := range byType {
		d.Usage = append(d.Usage, usageRow{Label: s.eventLabel(c.Lang, t), EventTotal: e})
	}
	slices.SortFunc(d.Usage, func(a, b usageRow) int {
		return cmp.Or(cmp.Compare(b.CostMicro, a.CostMicro), cmp.Compare(b.Count, a.Count), cmp.Compare(a.Label, b.Label))
	})
	if len(entries) > ledgerPerPage {
		entries = entries[:ledgerPerPage]
		d.Older = keys.olderURL(entries[len(entries)-1].ID)
	}
	d.Newer = keys.newerURL()
	for _, e := range entries {
		d.Ledger = append(d.Ledger, s.ledgerRow(c.Lang, e))
	}
	s.render(w, r, c, pageBilling, 0, d)
	return nil
}

func (s *Server) ledgerRow(lang string, e store.LedgerEntry) ledgerRow {
	row := ledgerRow{LedgerEntry: e, KindLabel: e.Kind, NoteText: e.Note}
	if key := "billing.kind." + e.Kind; s.cat.Has(key) {
		row.KindLabel = s.cat.T(lang, key)
	}
	switch {
	case e.Kind == "charge":
		// A charge's note is the event type it paid for: name it as the usage table does.
		row.NoteText = s.eventLabel(lang, e.Note)
	case e.Note == store.LedgerNoteOpening:
		row.NoteText = s.cat.T(lang, "billing.note.opening")
	case e.Note == store.LedgerNoteBalanceAdd:
		row.NoteText = s.cat.T(lang, "billing.note.balance_add")
	case strings.HasPrefix(e.Note, store.LedgerNoteDeduct):
		row.NoteText = s.cat.T(lang, "billing.note.balance_deduct", strings.TrimPrefix(e.Note, store.LedgerNoteDeduct))
	}
	return row
}

// ledgerKeys is where a ledger page starts. The store pages by "id < before", newest
// first, which finds the next older page but not the newer one; so each "Older" link also
// carries the trail of the starts of the pages above it (nearest first), and "Newer" pops
// it. The trail is capped: past maxTrail pages, "Newer" from the deepest ones jumps to the
// newest page instead of one page up, which only costs a click.
type ledgerKeys struct {
	before int64   // 0: the newest page
	trail  []int64 // the starts of the newer pages, nearest first; 0 is never in it
}

func parseLedgerKeys(q url.Values) ledgerKeys {
	var k ledgerKeys
	if b, err := strconv.ParseInt(q.Get("before"), 10, 64); err == nil && b > 0 {
		k.before = b
	}
	if k.before == 0 || q.Get("trail") == "" {
		return k
	}
	prev := k.before
	for _, f := range strings.Split(q.Get("trail"), ",") {
		v, err := strconv.ParseInt(f, 10, 64)
		// Starts grow towards the newest page; anything else is a hand-made link, whose
		// trail is dropped rather than followed somewhere odd.
		if err != nil || v <= prev || len(k.trail) == maxTrail {
			return ledgerKeys{before: k.before}
		}
		k.trail = append(k.trail, v)
		prev = v
	}
	return k
}

func ledgerURL(before int64, trail []int64) string {
	if before == 0 {
		return "/dashboard/billing#ledger"
	}
	q := url.Values{"before": {strconv.FormatInt(before, 10)}}
	if len(trail) > 0 {
		parts := make([]string, len(trail))
		for i, t := range trail {
			parts[i] = strconv.FormatInt(t, 10)
		}
		q.Set("trail", strings.Join(parts, ","))
	}
	return "/dashboard/billing?" + q.Encode() + "#ledger"
}

// olderURL is the page after the entry oldest.
func (k ledgerKeys) olderURL(oldest int64) string {
	var trail []int64
	if k.before != 0 {
		trail = append([]int64{k.before}, k.trail...)
	}
	return ledgerURL(oldest, trail[:min(len(trail), maxTrail)])
}

// newerURL is the page above, "" on the newest page.
func (k ledgerKeys) newerURL() string {
	switch {
	case k.before == 0:
		return ""
	case len(k.trail) == 0:
		return ledgerURL(0, nil)
	}
	return ledgerURL(k.trail[0], k.trail[1:])
}

// csvPage is how many ledger entries the export reads at a time: memory stays flat however
// long the ledger is.
const csvPage = 1000

var csvHeader = []string{"id", "created_at", "kind", "amount_usd", "balance_after_usd", "message_id", "note"}

// ledgerCSV streams the whole ledger, newest first. New entries get higher ids than the
// first page's, so keyset paging neither repeats nor skips one while the export runs.
func (s *Server) ledgerCSV(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	ctx := r.Context()
	// The first page is read before anything is written, so a failing store still gets a
	// proper error page.
	entries, _, err := s.st.LedgerPage(ctx, c.Account.ID, 0, csvPage)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="ledger-`+strconv.FormatInt(c.Account.ID, 10)+`.csv"`)
	cw := csv.NewWriter(w)
	_ = cw.Write(csvHeader)
	for {
		for _, e := range entries {
			msg := ""
			if e.MessageID != 0 {
				msg = strconv.FormatInt(e.MessageID, 10)
			}
			_ = cw.Write([]string{strconv.FormatInt(e.ID, 10), e.CreatedAt.UTC().Format(time.RFC3339), csvSafe(e.Kind),
				exactUSD(e.AmountMicro), exactUSD(e.BalanceAfter), msg, csvSafe(e.Note)})
		}
		cw.Flush()
		if cw.Error() != nil || len(entries) < csvPage {
			// Done, or the client went away.
			return nil
		}
		if entries, _, err = s.st.LedgerPage(ctx, c.Account.ID, entries[len(entries)-1].ID, csvPage); err != nil {
			if ctx.Err() == nil {
				s.log.Error("dashboard: ledger export", slog.Int64("account", c.Account.ID), slog.Any("err", err))
			}
			// The status is sent: break the connection so the file is not taken for whole.
			panic(http.ErrAbortHandler)
		}
	}
}

// csvSafe keeps a spreadsheet from reading a cell as a formula (CSV injection): a value
// that starts like one gets a leading apostrophe.
func csvSafe(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}

// exactUSD writes micro-USD as dollars with all six decimals ("-0.012345"): the export
// is for bookkeeping, where rounding would lose money.
func exactUSD(micro int64) string {
	sign, u := "", uint64(micro)
	if micro < 0 {
		sign, u = "-", uint64(-micro) // -MinInt64 wraps to itself, whose uint64 is right
	}
	return sign + strconv.FormatUint(u/billing.MicroPerUSD, 10) + "." + fmt.Sprintf("%06d", u%billing.MicroPerUSD)
}
