package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/crawl/crawltest"
)

// siteQuestions mirrors the questions of internal/crawl/testdata/sites/expect.json.
type siteQuestions struct {
	Helpcenter struct {
		Questions []siteQuestion `json:"questions"`
	} `json:"helpcenter"`
	Shop struct {
		Questions []siteQuestion `json:"questions"`
	} `json:"shop"`
}

type siteQuestion struct {
	Lang           string   `json:"lang"`
	Q              string   `json:"q"`
	ExpectAny      []string `json:"expect_any"`
	ExpectProducts []string `json:"expect_products"`
}

// The whole path an operator takes: add a site, crawl it with `svc crawl`, serve, and ask
// questions over the API in three languages. The answers must carry the facts of the crawled
// pages, and product questions must get the right product cards.
func TestCrawlThenAsk(t *testing.T) {
	sites := filepath.Join("..", "crawl", "testdata", "sites")
	raw, err := os.ReadFile(filepath.Join(sites, "expect.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs siteQuestions
	if err := json.Unmarshal(raw, &qs); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	type tenant struct {
		key       string
		questions []siteQuestion
	}
	var tenants []tenant
	for _, name := range []string{"helpcenter", "shop"} {
		site := crawltest.Serve(t, filepath.Join(sites, name))
		code, out, errOut := runCLI(t, dir, "", "account", "create", "--name", name, "--balance-usd", "5",
			"--send-rate-per-min", "1000")
		if code != 0 {
			t.Fatalf("account create: %s", errOut)
		}
		acct := decodeOne(t, out)
		id := fmt.Sprint(acct["account_id"])

		code, out, errOut = runCLI(t, dir, "", "site", "add", "--account", id, "--url", site.URL+"/", "--name", name, "--allow-private")
		if code != 0 || decodeOne(t, out)["site_id"] == nil {
			t.Fatalf("site add: %d %s %s", code, out, errOut)
		}
		// Without --allow-private the loopback site is refused, and the reason names the flag.
		code, out, errOut = runCLI(t, dir, "", "crawl", "--account", id, site.URL+"/")
		if code != 2 || out != "" || !strings.Contains(errOut, "--allow-private") {
			t.Fatalf("crawl without --allow-private: %d %q %q", code, out, errOut)
		}
		code, out, errOut = runCLI(t, dir, "", "crawl", "--account", id, "--allow-private", site.URL+"/")
		if code != 0 {
			t.Fatalf("crawl: %s", errOut)
		}
		res := decodeOne(t, out)
		t.Logf("%s crawl: %s", name, strings.TrimSpace(out))
		for _, k := range []string{"pages", "products", "articles", "skipped"} {
			if _, ok := res[k]; !ok {
				t.Errorf("crawl output lacks %q", k)
			}
		}
		if res["pages"].(float64) < 15 {
			t.Fatalf("%s: only %v pages crawled", name, res["pages"])
		}
		ts := tenant{key: acct["api_key"].(string)}
		if name == "helpcenter" {
			ts.questions = qs.Helpcenter.Questions
		} else {
			ts.questions = qs.Shop.Questions
		}
		tenants = append(tenants, ts)
	}

	srv := startServer(t, dir, "serve")
	defer srv.stop(t)
	total, answered, carded, wantCards := 0, 0, 0, 0
	for _, tn := range tenants {
		for _, q := range tn.questions {
			msg := send(t, srv.base, tn.key, q.Q)
			total++
			hit := false
			for _, want := range q.ExpectAny {
				if strings.Contains(msg.Body, want) {
					hit = true
				}
			}
			if hit {
				answered++
			} else {
				t.Logf("MISS [%s] %s\n     -> %s", q.Lang, q.Q, msg.Body)
			}
			names := map[string]bool{}
			for _, p := range msg.Products {
				names[p.Name] = true
			}
			for _, p := range q.ExpectProducts {
				wantCards++
				if names[p] {
					carded++
				} else {
					t.Logf("NO CARD [%s] %q for %s (got %v)", q.Lang, p, q.Q, names)
				}
			}
		}
	}
	t.Logf("answered %d/%d questions with the expected fact; %d/%d expected product cards", answered, total, carded, wantCards)
	if answered*100 < total*70 {
		t.Errorf("only %d of %d answers carry the page's fact", answered, total)
	}
	if carded*100 < wantCards*80 {
		t.Errorf("only %d of %d expected product cards", carded, wantCards)
	}
}

type sentMessage struct {
	Body     string `json:"body"`
	Source   string `json:"source"`
	Products []struct {
		Name  string `json:"name"`
		Price string `json:"price"`
	} `json:"products"`
}

func send(t *testing.T, base, key, text string) sentMessage {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/chat/send", strings.NewReader(url.Values{"message": {text}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		Success bool `json:"success"`
		Data    struct {
			Messages []sentMessage `json:"messages"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || !env.Success || len(env.Data.Messages) == 0 {
		t.Fatalf("send %q: %d %v", text, resp.StatusCode, err)
	}
	return env.Data.Messages[len(env.Data.Messages)-1]
}
