package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/lang"
)

func TestAuthentication(t *testing.T) {
	h := newHarness(t)
	id, key := h.tenant(account.Settings{})
	tests := []struct {
		name   string
		header map[string]string
		status int
	}{
		{"no key", nil, 401},
		{"bearer", map[string]string{"Authorization": "Bearer " + key}, 200},
		{"bearer lower-case scheme", map[string]string{"Authorization": "bearer " + key}, 200},
		{"x-svc-key", map[string]string{"X-SVC-Key": key}, 200},
		{"wrong key", map[string]string{"Authorization": "Bearer svc_pk_00000000000000000000000000000000"}, 401},
		{"garbage", map[string]string{"Authorization": "Bearer nope"}, 401},
		{"basic scheme", map[string]string{"Authorization": "Basic " + key}, 401},
		{"embed token is not a secret key", map[string]string{"Authorization": "Bearer svc_emb_abcdefghijklmnopqrstuvwxyz012345"}, 401},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, h.srv.URL+"/api/v1/chat/start", nil)
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			r := h.doReq(req)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.raw)
			}
			if tc.status == 401 && (r.Error != "unauthorized" || strings.Contains(r.Message, key)) {
				t.Fatalf("401 body: %s", r.raw)
			}
		})
	}

	// Rotation revokes the old key at once.
	nk, err := h.accounts.RotateKey(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if r := h.get("/api/v1/chat/apiKey", key); r.Status != 401 {
		t.Fatalf("old key after rotation: %d", r.Status)
	}
	if r := h.get("/api/v1/chat/apiKey", nk); r.Status != 200 {
		t.Fatalf("new key: %d", r.Status)
	}
}

func TestRoutingAndMethods(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{})
	tests := []struct {
		method, path string
		status       int
		code         string
	}{
		{"GET", "/api/v1/chat/send", 405, "method_not_allowed"},
		{"POST", "/api/v1/chat/start", 405, "method_not_allowed"},
		{"DELETE", "/api/v1/chat/sync", 405, "method_not_allowed"},
		{"GET", "/api/v1/chat/noSuchAction", 404, "unknown_action"},
		{"POST", "/api/v1/chat/noSuchAction", 404, "unknown_action"},
		{"GET", "/api/v1/nothing", 404, "not_found"},
		{"GET", "/api/v1/chat/send/extra", 404, "not_found"},
		{"GET", "/api.php?endpoint=chat&action=start", 200, ""},
		{"GET", "/api.php?endpoint=chat&action=getTone", 200, ""},
		{"GET", "/api.php?endpoint=chat&action=bogus", 404, "unknown_action"},
		{"GET", "/api.php?endpoint=other&action=start", 404, "not_found"},
		{"GET", "/api.php?endpoint=chat", 400, "bad_request"},
		{"GET", "/api.php?endpoint=chat&action=send", 405, "method_not_allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := h.do(tc.method, tc.path, key, nil, "")
			if r.Status != tc.status || r.Error != tc.code || r.Success != (tc.status == 200) {
				t.Fatalf("got %d %q, want %d %q: %s", r.Status, r.Error, tc.status, tc.code, r.raw)
			}
		})
	}
	// The legacy form sends too.
	r := h.postForm("/api.php?endpoint=chat&action=send", key, url.Values{"message": {"Merhaba"}})
	if r.Status != 200 {
		t.Fatalf("legacy send: %d %s", r.Status, r.raw)
	}
	if r := h.get("/api/v1/chat/send", key); r.Header.Get("Allow") != "POST" {
		t.Fatalf("405 without Allow: %v", r.Header)
	}
}

func TestSendValidationAndEncodings(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{SendRatePerMin: ptr(1000), BalanceMicro: ptr(int64(1_000_000))})
	tests := []struct {
		name   string
		do     func() response
		status int
	}{
		{"empty", func() response { return h.postForm("/api/v1/chat/send", key, url.Values{"message": {""}}) }, 400},
		{"blank", func() response { return h.postForm("/api/v1/chat/send", key, url.Values{"message": {"  \n "}}) }, 400},
		{"missing", func() response { return h.postForm("/api/v1/chat/send", key, url.Values{"other": {"x"}}) }, 400},
		{"2000 chars", func() response {
			return h.postForm("/api/v1/chat/send", key, url.Values{"message": {strings.Repeat("a", 2000)}})
		}, 200},
		{"2000 multibyte chars", func() response {
			return h.postForm("/api/v1/chat/send", key, url.Values{"message": {strings.Repeat("ş", 2000)}})
		}, 200},
		{"2001 chars", func() response {
			return h.postForm("/api/v1/chat/send", key, url.Values{"message": {strings.Repeat("a", 2001)}})
		}, 400},
		{"json", func() response { return h.postJSON("/api/v1/chat/send", key, map[string]any{"message": "Hallo"}) }, 200},
		{"json not an object", func() response {
			return h.do("POST", "/api/v1/chat/send", key, strings.NewReader(`["x"]`), "application/json")
		}, 400},
		{"json broken", func() response {
			return h.do("POST", "/api/v1/chat/send", key, strings.NewReader(`{"message":`), "application/json")
		}, 400},
		{"json wrong type", func() response { return h.postJSON("/api/v1/chat/send", key, map[string]any{"message": []int{1}}) }, 400},
		{"multipart", func() response {
			return h.postMultipart("/api/v1/chat/send", key, map[string]string{"message": "Hello"})
		}, 200},
		{"no content type", func() response {
			return h.do("POST", "/api/v1/chat/send", key, strings.NewReader("message=hi"), "")
		}, 200},
		{"unsupported content type", func() response {
			return h.do("POST", "/api/v1/chat/send", key, strings.NewReader("<x/>"), "application/xml")
		}, 400},
		{"invalid utf-8", func() response {
			return h.postForm("/api/v1/chat/send", key, url.Values{"message": {"\xff\xfe"}})
		}, 400},
		{"body over 64 KiB", func() response {
			return h.postForm("/api/v1/chat/send", key, url.Values{"message": {strings.Repeat("a", 70_000)}})
		}, 413},
		{"multipart over 64 KiB", func() response {
			return h.postMultipart("/api/v1/chat/send", key, map[string]string{"message": strings.Repeat("a", 70_000)})
		}, 413},
		{"multipart without boundary", func() response {
			return h.do("POST", "/api/v1/chat/send", key, strings.NewReader("x"), "multipart/form-data")
		}, 400},
		{"json over 64 KiB", func() response {
			return h.postJSON("/api/v1/chat/send", key, map[string]any{"message": strings.Repeat("a", 70_000)})
		}, 413},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.do()
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d: %.300s", r.Status, tc.status, r.raw)
			}
			if tc.status != 200 && r.Error != "bad_request" {
				t.Fatalf("error code %q", r.Error)
			}
		})
	}
}

func TestSendRateLimit(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{})
	for i := 1; i <= 15; i++ {
		if _, r := h.send(key, "Hello"); r.Status != 200 {
			t.Fatalf("send %d: %d", i, r.Status)
		}
	}
	_, r := h.send(key, "Hello")
	if r.Status != 429 || r.Error != "rate_limited" {
		t.Fatalf("16th send: %d %s", r.Status, r.raw)
	}
	ra, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || ra < 1 || ra > 60 {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	// Invalid messages are refused before the limiter and do not consume it; other actions
	// are not send-limited.
	if r := h.postForm("/api/v1/chat/send", key, url.Values{"message": {""}}); r.Status != 400 {
		t.Fatalf("validation after limit: %d", r.Status)
	}
	if r := h.get("/api/v1/chat/start", key); r.Status != 200 {
		t.Fatalf("start while send-limited: %d", r.Status)
	}
}

func TestSendPipeline(t *testing.T) {
	h := newHarness(t)
	id, key := h.tenant(account.Settings{SendRatePerMin: ptr(1000), BalanceMicro: ptr(int64(1_000_000))})

	t.Run("greeting is free small talk", func(t *testing.T) {
		before := h.balance(id)
		d, _ := h.send(key, "Merhaba!")
		if d.Messages[1].Source != "cache_shared" || d.LowConfidence || h.balance(id) != before {
			t.Fatalf("greeting: %+v, balance %d -> %d", d, before, h.balance(id))
		}
	})

	t.Run("German answered in German and the conversation follows", func(t *testing.T) {
		before := h.balance(id)
		d, _ := h.send(key, "Wie lange habe ich Garantie?")
		rep := d.Messages[1]
		if rep.Source != "ai" || d.LowConfidence || !strings.Contains(rep.Body, "2 Jahre") || !strings.Contains(rep.Body, "Quelle") {
			t.Fatalf("German reply: %+v", rep)
		}
		if h.balance(id) >= before {
			t.Fatalf("AI answer not charged: %d -> %d", before, h.balance(id))
		}
		var st struct {
			Lang string `json:"lang"`
		}
		h.get("/api/v1/chat/start", key).decode(t, &st)
		if st.Lang != "de" {
			t.Fatalf("conversation lang %q, want de", st.Lang)
		}
	})

	t.Run("Turkish questions find Turkish pages", func(t *testing.T) {
		for q, want := range map[string]string{
			"ayakkabı iadesi nasıl yapılır": "30 gün",
			"İstanbul'da mağazanız var mı":  "Kadıköy",
			"kargo ucreti ne kadar":         "TL",
		} {
			d, _ := h.send(key, q)
			if d.LowConfidence || !strings.Contains(d.Messages[1].Body, want) {
				t.Errorf("%q: %+v", q, d.Messages[1])
			}
		}
	})

	t.Run("unanswerable is low confidence and free", func(t *testing.T) {
		before := h.balance(id)
		d, _ := h.send(key, "What is the boiling point of liquid nitrogen on Neptune?")
		if !d.LowConfidence || d.Messages[1].Source != "fallback" || h.balance(id) != before {
			t.Fatalf("unanswerable: %+v", d)
		}
	})

	t.Run("curated Q&A and repeats come from the cache, free", func(t *testing.T) {
		for _, q := range []string{"How long does delivery take?", "Wie lange dauern Lieferungen nach Deutschland?", "kargo ücreti ne kadar"} {
			d, _ := h.send(key, q)
			if d.Messages[1].Source != "cache_tenant" || d.LowConfidence {
				t.Fatalf("curated %q: %+v", q, d.Messages[1])
			}
		}
		first, _ := h.send(key, "Do you have a store in Istanbul?")
		if first.Messages[1].Source != "ai" {
			t.Fatalf("first ask: %+v", first.Messages[1])
		}
		before := h.balance(id)
		again, _ := h.send(key, "do you have a STORE in istanbul")
		if again.Messages[1].Source != "cache_tenant" || again.Messages[1].Body != first.Messages[1].Body || h.balance(id) != before {
			t.Fatalf("repeat: %+v", again.Messages[1])
		}
	})
}

func TestZeroBalance(t *testing.T) {
	h := newHarness(t)
	id, key := h.tenant(account.Settings{})
	if _, r := h.send(key, "Hallo"); r.Status != 200 {
		t.Fatal("greeting at zero balance")
	}
	d, r := h.send(key, "How long is the warranty?")
	if r.Status != 200 || !d.LowConfidence || d.Messages[1].Source != "system" || d.Messages[1].Role != "assistant" {
		t.Fatalf("zero balance: %d %+v", r.Status, d)
	}
	// Curated answers are still served free at zero balance.
	d, _ = h.send(key, "Wie lange dauert die Lieferung nach Deutschland?")
	if d.Messages[1].Source != "cache_tenant" || d.LowConfidence {
		t.Fatalf("curated at zero balance: %+v", d.Messages[1])
	}
	if h.balance(id) != 0 {
		t.Fatalf("balance moved: %d", h.balance(id))
	}
	// A repeated question answered earlier is also free at zero balance.
	if _, err := h.accounts.AddBalance(context.Background(), id, 100_000, "t"); err != nil {
		t.Fatal(err)
	}
	first, _ := h.send(key, "Which jacket size for a 100 cm chest?")
	if first.Messages[1].Source != "ai" {
		t.Fatalf("first: %+v", first.Messages[1])
	}
	if _, err := h.accounts.AddBalance(context.Background(), id, -h.balance(id), "drain"); err != nil {
		t.Fatal(err)
	}
	again, _ := h.send(key, "Which jacket size for a 100 cm chest?")
	if again.Messages[1].Source != "cache_tenant" {
		t.Fatalf("repeat at zero balance: %+v", again.Messages[1])
	}
}

func TestDailyQuota(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{DailyAnswers: ptr(1), BalanceMicro: ptr(int64(1_000_000))})
	if d, _ := h.send(key, "Is there a repair service?"); d.Messages[1].Source != "ai" {
		t.Fatalf("first: %+v", d.Messages[1])
	}
	_, r := h.send(key, "How long is the warranty?")
	if r.Status != 429 || r.Error != "limit_reached" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("over quota: %d %s", r.Status, r.raw)
	}
	// Cache hits and small talk never touch the quota.
	if d, r := h.send(key, "Is there a repair service?"); r.Status != 200 || d.Messages[1].Source != "cache_tenant" {
		t.Fatalf("cache over quota: %d %+v", r.Status, d)
	}
	if _, r := h.send(key, "thanks!"); r.Status != 200 {
		t.Fatalf("thanks over quota: %d", r.Status)
	}
}

// Fifty parallel sends against a balance that covers ten answers charge at most the balance,
// never take it below zero, and leave a ledger that sums to it.
func TestConcurrentSendsNeverOverdraw(t *testing.T) {
	h := newHarness(t)
	id, key := h.tenant(account.Settings{SendRatePerMin: ptr(1000), DailyAnswers: ptr(0)})
	// Price one answer, then fund exactly ten of that size.
	probeID, probeKey := h.tenant(account.Settings{Name: ptr("probe"), BalanceMicro: ptr(int64(1_000_000))})
	h.send(probeKey, "How long is the warranty?")
	cost := 1_000_000 - h.balance(probeID)
	if cost <= 0 {
		t.Fatal("probe answer was free")
	}
	if _, err := h.accounts.AddBalance(context.Background(), id, 10*cost, "ten answers"); err != nil {
		t.Fatal(err)
	}
	questions := []string{"Which payment methods do you accept?", "How long is the warranty?", "Do you deliver to Austria?",
		"What are the opening hours of the Kadıköy store?", "Which jacket size for a 100 cm chest?", "How do I track my order?",
		"Can I return shoes for free?", "How much does shipping to Germany cost?", "Is there a repair service?",
		"Where is the store?"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	sources := map[string]int{}
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			q := fmt.Sprintf("%s (variant %d)", questions[i%len(questions)], i)
			r := h.postForm("/api/v1/chat/send", key, url.Values{"message": {q}})
			if r.Status != 200 {
				t.Errorf("send %d: %d %s", i, r.Status, r.raw)
				return
			}
			var d sendData
			r.decode(t, &d)
			mu.Lock()
			sources[d.Messages[1].Source]++
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	if b := h.balance(id); b < 0 {
		t.Fatalf("balance went negative: %d", b)
	}
	entries, err := h.st.Ledger(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var sum, charged int64
	for _, e := range entries {
		sum += e.AmountMicro
		if e.Kind == "charge" {
			charged -= e.AmountMicro
		}
	}
	if sum != h.balance(id) || charged > 10*cost {
		t.Fatalf("ledger sum %d, balance %d, charged %d of %d", sum, h.balance(id), charged, 10*cost)
	}
	if sources["system"] == 0 || sources["ai"] == 0 {
		t.Fatalf("expected some answers and some balance notices: %v", sources)
	}
}

func TestConversationSyncAndFeedback(t *testing.T) {
	h := newHarness(t)
	accountID, key := h.tenant(account.Settings{SendRatePerMin: ptr(1000), BalanceMicro: ptr(int64(1_000_000))})
	var st struct {
		ConversationID int64     `json:"conversationId"`
		Lang           string    `json:"lang"`
		Messages       []message `json:"messages"`
	}
	h.get("/api/v1/chat/start", key).decode(t, &st)
	if st.ConversationID == 0 || st.Lang != "en" || len(st.Messages) != 0 {
		t.Fatalf("fresh start: %+v", st)
	}
	a, _ := h.send(key, "How long is the warranty?")
	b, _ := h.send(key, "Do you have a store in Istanbul?")
	if b.Messages[1].Source != "ai" {
		t.Fatalf("the rated answer must come from the engine, so that it is cached: %+v", b.Messages[1])
	}
	if a.ConversationID != st.ConversationID || b.Messages[0].ID <= a.Messages[1].ID {
		t.Fatalf("ids: %+v %+v", a, b)
	}
	for _, m := range append(a.Messages, b.Messages...) {
		if ts, err := time.Parse(time.RFC3339, m.CreatedAt); err != nil || !strings.HasSuffix(m.CreatedAt, "Z") || ts.IsZero() {
			t.Fatalf("created_at %q", m.CreatedAt)
		}
	}
	var sy struct {
		Messages []message `json:"messages"`
	}
	h.get(fmt.Sprintf("/api/v1/chat/sync?sinceId=%d", a.Messages[1].ID), key).decode(t, &sy)
	if len(sy.Messages) != 2 || sy.Messages[0].ID != b.Messages[0].ID {
		t.Fatalf("sync: %+v", sy.Messages)
	}
	h.get("/api/v1/chat/sync", key).decode(t, &sy)
	if len(sy.Messages) != 4 {
		t.Fatalf("sync from 0: %d", len(sy.Messages))
	}
	for _, bad := range []string{"-1", "x"} {
		if r := h.get("/api/v1/chat/sync?sinceId="+bad, key); r.Status != 400 {
			t.Fatalf("sinceId=%s: %d", bad, r.Status)
		}
	}
	h.get("/api/v1/chat/start", key).decode(t, &st)
	if len(st.Messages) != 4 {
		t.Fatalf("start history: %d", len(st.Messages))
	}

	reply := b.Messages[1].ID
	fb := []struct {
		form   url.Values
		status int
	}{
		{url.Values{"messageId": {fmt.Sprint(reply)}, "rating": {"helpful"}}, 200},
		{url.Values{"messageId": {fmt.Sprint(reply)}, "rating": {"not_helpful"}, "comment": {"Too vague."}}, 200},
		{url.Values{"messageId": {fmt.Sprint(reply)}, "rating": {"meh"}}, 400},
		{url.Values{"rating": {"helpful"}}, 400},
		{url.Values{"messageId": {"abc"}, "rating": {"helpful"}}, 400},
		{url.Values{"messageId": {fmt.Sprint(b.Messages[0].ID)}, "rating": {"helpful"}}, 400},
		{url.Values{"messageId": {"999999"}, "rating": {"helpful"}}, 404},
		{url.Values{"messageId": {fmt.Sprint(reply)}, "rating": {"helpful"}, "comment": {strings.Repeat("x", 501)}}, 400},
	}
	for i, tc := range fb {
		r := h.postForm("/api/v1/chat/feedback", key, tc.form)
		if r.Status != tc.status {
			t.Errorf("feedback case %d: %d, want %d: %s", i, r.Status, tc.status, r.raw)
		}
	}
	// The not_helpful answer is on the review list and no longer served from the cache.
	items, err := h.st.ReviewList(context.Background(), accountID)
	if err != nil || len(items) != 1 || items[0].Comment != "Too vague." {
		t.Fatalf("review list: %v %+v", err, items)
	}
	// Asked again, the question is answered afresh rather than from the withdrawn cache entry.
	again, _ := h.send(key, "Do you have a store in Istanbul?")
	if again.Messages[1].Source != "ai" {
		t.Fatalf("not_helpful answer still served from the cache: %+v", again.Messages[1])
	}
	// Another tenant cannot rate or read this conversation.
	_, other := h.tenant(account.Settings{Name: ptr("Other")})
	if r := h.postForm("/api/v1/chat/feedback", other, url.Values{"messageId": {fmt.Sprint(reply)}, "rating": {"helpful"}}); r.Status != 404 {
		t.Fatalf("cross-tenant feedback: %d", r.Status)
	}
	h.get("/api/v1/chat/sync", other).decode(t, &sy)
	if len(sy.Messages) != 0 {
		t.Fatalf("cross-tenant sync saw %d messages", len(sy.Messages))
	}
}

func TestAccountEndpoints(t *testing.T) {
	h := newHarness(t)
	id, key := h.tenant(account.Settings{SendRatePerMin: ptr(1000), BalanceMicro: ptr(int64(2_500_000))})
	var ak struct {
		APIKey struct {
			ID     int64  `json:"id"`
			Prefix string `json:"api_key_prefix"`
			Status string `json:"status"`
		} `json:"apiKey"`
		Balance float64 `json:"balance"`
		Pricing struct {
			In      float64 `json:"input_per_m_usd"`
			Out     float64 `json:"output_per_m_usd"`
			Typical float64 `json:"typical_ai_usd"`
		} `json:"pricing"`
	}
	h.get("/api/v1/chat/apiKey", key).decode(t, &ak)
	if ak.APIKey.Prefix != key[:15] || ak.APIKey.Status != "active" || ak.Balance != 2.5 || ak.Pricing.In != 3 ||
		ak.Pricing.Out != 25 || ak.Pricing.Typical != 0.0355 {
		t.Fatalf("apiKey: %+v", ak)
	}
	h.send(key, "hi")
	h.send(key, "How long is the warranty?")
	h.send(key, "How long is the warranty?")
	var us struct {
		WindowDays int `json:"window_days"`
		ByEvent    map[string]struct {
			Count int     `json:"count"`
			Cost  float64 `json:"cost"`
		} `json:"by_event"`
		TotalCost   float64 `json:"total_cost"`
		TotalEvents int     `json:"total_events"`
		AllTime     struct {
			Events int     `json:"events"`
			Cost   float64 `json:"cost"`
		} `json:"all_time"`
		Recent []struct {
			EventType string  `json:"event_type"`
			CostUSD   float64 `json:"cost_usd"`
		} `json:"recent"`
		PricePerMessage float64 `json:"price_per_message_usd"`
	}
	h.get("/api/v1/chat/usageSummary", key).decode(t, &us)
	spent := float64(2_500_000-h.balance(id)) / 1e6
	if us.WindowDays != 30 || us.TotalEvents != 3 || us.ByEvent["answer"].Count != 1 || us.ByEvent["cache_shared"].Count != 1 ||
		us.ByEvent["cache_tenant"].Count != 1 || us.TotalCost != spent || us.AllTime.Cost != spent || len(us.Recent) != 3 {
		t.Fatalf("usage: %+v (spent %v)", us, spent)
	}
	if us.PricePerMessage != spent {
		t.Fatalf("typical cost %v, want the real average %v", us.PricePerMessage, spent)
	}
	h.get("/api/v1/chat/apiKey", key).decode(t, &ak)
	if ak.Pricing.Typical != spent {
		t.Fatalf("typical_ai_usd %v, want %v", ak.Pricing.Typical, spent)
	}

	if _, err := h.accounts.Update(context.Background(), id, account.Settings{TonePreset: ptr("warm"), ToneCustom: ptr("Use first names.")}); err != nil {
		t.Fatal(err)
	}
	var tone struct {
		Preset  string   `json:"preset"`
		Custom  string   `json:"custom"`
		Presets []string `json:"presets"`
	}
	h.get("/api/v1/chat/getTone", key).decode(t, &tone)
	if tone.Preset != "warm" || tone.Custom != "Use first names." || strings.Join(tone.Presets, ",") != "professional,warm,energetic" {
		t.Fatalf("tone: %+v", tone)
	}
}

func TestSuggestions(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{Lang: ptr("de")})
	var sg struct {
		Articles []struct {
			ID        int64  `json:"id"`
			Slug      string `json:"slug"`
			ViewCount int    `json:"view_count"`
		} `json:"articles"`
		Seeds []string `json:"seeds"`
	}
	h.get("/api/v1/chat/suggestions", key).decode(t, &sg)
	if len(sg.Articles) == 0 || len(sg.Seeds) == 0 {
		t.Fatalf("suggestions: %+v", sg)
	}
	for _, s := range sg.Seeds {
		if l, _ := lang.Detect(s); l != "de" {
			t.Errorf("seed %q is not German", s)
		}
	}
}

func TestHealthAndDocument(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{})
	if r := h.get("/readyz", ""); !strings.Contains(string(r.raw), `"database":"ok","redis":"off"`) {
		t.Fatalf("readyz without Redis: %s", r.raw)
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		if r := h.get(p, ""); r.Status != 200 || !r.Success {
			t.Fatalf("%s: %d %s", p, r.Status, r.raw)
		}
	}
	r := h.get("/api/v1/openapi.json", "")
	if r.Status != 200 || !strings.Contains(string(r.raw), `"openapi": "3.1`) && !strings.Contains(string(r.raw), `"openapi":"3.1`) {
		t.Fatalf("openapi: %d %.100s", r.Status, r.raw)
	}
	if id := r.Header.Get("X-Request-Id"); id == "" {
		t.Fatal("no request id")
	}
	req, _ := http.NewRequest("GET", h.srv.URL+"/healthz", nil)
	req.Header.Set("X-Request-Id", "abc-123")
	if got := h.doReq(req).Header.Get("X-Request-Id"); got != "abc-123" {
		t.Fatalf("request id not echoed: %q", got)
	}
	h.st.Close()
	if r := h.get("/readyz", ""); r.Status != 503 || r.Error != "server_error" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("readyz with a closed store: %d %s", r.Status, r.raw)
	}
	// A request that fails because the store does not answer is a 503 to retry, not a 500.
	r = h.postForm("/api/v1/chat/send", key, url.Values{"message": {"Hello?"}})
	if r.Status != 503 || r.Error != "server_error" || r.Header.Get("Retry-After") != "5" {
		t.Fatalf("send with a closed store: %d Retry-After %q %s", r.Status, r.Header.Get("Retry-After"), r.raw)
	}
}
