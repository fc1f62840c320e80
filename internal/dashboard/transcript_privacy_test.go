package dashboard_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"svc/internal/store"
)

// A visitor's data request from the transcript: the owner downloads everything stored about
// the visitor (all their conversations, with every token) and deletes it; agents and other
// accounts cannot, and the API conversation has no visitor to ask for.
func TestVisitorDataDownloadAndDelete(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, key, email, pw := h.tenant("Shop")
	_, _, otherEmail, otherPw := h.tenant("Elsewhere")
	shop, _ := cvToken(t, h, key, "Main shop")
	blog, _ := cvToken(t, h, key, "Blog")
	visitor := cvVisitor(1)
	first := cvWidgetAsk(t, h, shop, visitor, "How long does delivery take?")
	cvWidgetRate(t, h, shop, visitor, first.reply().ID, "helpful", "quick answer")
	second := cvWidgetAsk(t, h, blog, visitor, "Which hiking boots do you have?")
	someoneElse := cvWidgetAsk(t, h, shop, cvVisitor(2), "Do you sell gift cards?")
	api := cvAsk(t, h, key, "What are your opening hours?")
	conv := "/dashboard/conversations/" + strconv.FormatInt(first.ConversationID, 10)
	download, remove := conv+"/visitor-data", conv+"/visitor-data/delete"

	owner := h.browser()
	owner.signIn(email, pw)
	p := owner.get(conv)
	if p.Status != http.StatusOK {
		t.Fatalf("transcript: %d", p.Status)
	}
	mustContain(t, p.Body, "Visitor data", `href="`+download+`" download>Download visitor data</a>`,
		`action="`+remove+`" data-confirm="Delete everything stored about this visitor?`, "Delete visitor data")

	d := owner.get(download)
	if d.Status != http.StatusOK || d.Header.Get("Content-Type") != "application/json; charset=utf-8" ||
		d.Header.Get("Content-Disposition") != `attachment; filename="visitor-`+visitor+`.json"` ||
		d.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("download: %d %v", d.Status, d.Header)
	}
	var exp struct {
		AccountID     int64  `json:"account_id"`
		Visitor       string `json:"visitor"`
		Conversations []struct {
			ConversationID int64  `json:"conversation_id"`
			TokenLabel     string `json:"token_label"`
			Messages       []struct {
				Body      string `json:"body"`
				Source    string `json:"source"`
				CreatedAt string `json:"created_at"`
				Feedback  *struct {
					Rating  string `json:"rating"`
					Comment string `json:"comment"`
				} `json:"feedback"`
			} `json:"messages"`
		} `json:"conversations"`
	}
	if err := json.Unmarshal([]byte(d.Body), &exp); err != nil {
		t.Fatalf("download is not JSON: %v\n%s", err, d.Body)
	}
	if exp.AccountID != a.ID || exp.Visitor != visitor || len(exp.Conversations) != 2 ||
		exp.Conversations[0].ConversationID != first.ConversationID || exp.Conversations[1].ConversationID != second.ConversationID ||
		exp.Conversations[0].TokenLabel != "Main shop" || exp.Conversations[1].TokenLabel != "Blog" {
		t.Fatalf("export: %s", d.Body)
	}
	msgs := exp.Conversations[0].Messages
	if len(msgs) != 2 || msgs[0].Body != "How long does delivery take?" || msgs[1].Source != first.reply().Source ||
		msgs[1].CreatedAt == "" || msgs[1].Feedback == nil || msgs[1].Feedback.Rating != "helpful" ||
		msgs[1].Feedback.Comment != "quick answer" {
		t.Fatalf("messages: %+v", msgs)
	}
	if strings.Contains(d.Body, "gift cards") || strings.Contains(d.Body, "opening hours") {
		t.Fatal("the export holds another visitor's or the API's messages")
	}

	// The API conversation has no visitor: no section, and its visitor-data routes are 404s.
	apiConv := "/dashboard/conversations/" + strconv.FormatInt(api.ConversationID, 10)
	if p := owner.get(apiConv); p.Status != http.StatusOK || strings.Contains(p.Body, "Download visitor data") {
		t.Errorf("API transcript: %d, shows the visitor-data section: %v", p.Status, strings.Contains(p.Body, "Download visitor data"))
	}
	if p := owner.get(apiConv + "/visitor-data"); p.Status != http.StatusNotFound {
		t.Errorf("API conversation's visitor data: %d", p.Status)
	}

	// An agent reads the transcript but may neither download nor delete.
	agentEmail, agentPw := h.user(a.ID, store.UserAgent)
	agent := h.browser()
	agent.signIn(agentEmail, agentPw)
	if p := agent.get(conv); p.Status != http.StatusOK || strings.Contains(p.Body, "Download visitor data") {
		t.Errorf("agent's transcript: %d", p.Status)
	}
	if p := agent.get(download); p.Status != http.StatusForbidden || strings.Contains(p.Body, "delivery") {
		t.Errorf("agent download: %d", p.Status)
	}
	if p := agent.post(remove, url.Values{}); p.Status != http.StatusForbidden {
		t.Errorf("agent delete: %d", p.Status)
	}
	// Another account's owner: not found, and nothing deleted.
	other := h.browser()
	other.signIn(otherEmail, otherPw)
	if p := other.get(download); p.Status != http.StatusNotFound || strings.Contains(p.Body, "delivery") {
		t.Errorf("another account's download: %d", p.Status)
	}
	if p := other.post(remove, url.Values{"_csrf": {csrf(t, other.get("/dashboard/").Body)}}); p.Status != http.StatusNotFound {
		t.Errorf("another account's delete: %d", p.Status)
	}
	if p := owner.get(download); p.Status != http.StatusOK {
		t.Fatalf("refused deletes deleted the data: %d", p.Status)
	}

	// The owner deletes: every conversation of the visitor goes, the rest stays, and the
	// balance is what it was.
	balance := cvBalance(t, h, key)
	p = owner.post(remove, url.Values{"_csrf": {csrf(t, owner.get(conv).Body)}})
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/dashboard/conversations" {
		t.Fatalf("delete: %d %q", p.Status, p.Header.Get("Location"))
	}
	mustContain(t, owner.get("/dashboard/conversations").Body, "The visitor&#39;s data is deleted.")
	for _, id := range []int64{first.ConversationID, second.ConversationID} {
		if p := owner.get("/dashboard/conversations/" + strconv.FormatInt(id, 10)); p.Status != http.StatusNotFound {
			t.Errorf("conversation %d after delete: %d", id, p.Status)
		}
	}
	if p := owner.get(download); p.Status != http.StatusNotFound {
		t.Errorf("download after delete: %d", p.Status)
	}
	for _, id := range []int64{someoneElse.ConversationID, api.ConversationID} {
		if p := owner.get("/dashboard/conversations/" + strconv.FormatInt(id, 10)); p.Status != http.StatusOK {
			t.Errorf("conversation %d of someone else: %d", id, p.Status)
		}
	}
	if after := cvBalance(t, h, key); after != balance {
		t.Errorf("balance %v after the delete, was %v", after, balance)
	}
}

// The section speaks the user's language (a profile setting).
func TestVisitorDataSectionIsTranslated(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Dükkan")
	tok, _ := cvToken(t, h, key, "Ana site")
	sent := cvWidgetAsk(t, h, tok, cvVisitor(3), "Kargo ne kadar sürer?")
	b := h.browser()
	b.signIn(email, pw)
	for lang, want := range map[string][]string{
		"tr": {"Ziyaretçi verilerini indir", "Ziyaretçi verilerini sil"},
		"de": {"Besucherdaten herunterladen", "Besucherdaten löschen"},
	} {
		if p := b.post("/dashboard/profile/lang", url.Values{"lang": {lang}}); p.Status != http.StatusSeeOther {
			t.Fatalf("set language %s: %d", lang, p.Status)
		}
		p := b.get("/dashboard/conversations/" + strconv.FormatInt(sent.ConversationID, 10))
		if p.Status != http.StatusOK {
			t.Fatalf("%s transcript: %d", lang, p.Status)
		}
		mustContain(t, p.Body, want...)
	}
}
