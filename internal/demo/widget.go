package demo

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"strings"

	"svc/internal/account"
	"svc/internal/store"
)

// WidgetLabel names the demo's embed token, so that a later run can revoke it.
const WidgetLabel = "Demo widget"

// SeedWidget issues the demo account a fresh embed token for domains, revoking the token an
// earlier run issued: like keys, tokens are stored hashed and cannot be shown again, and the
// account may hold only five active ones.
func SeedWidget(ctx context.Context, st store.Store, accounts *account.Service, a store.Account, domains []string) (string, error) {
	ts, err := st.EmbedTokens(ctx, a.ID)
	if err != nil {
		return "", fmt.Errorf("list demo tokens: %w", err)
	}
	for _, t := range ts {
		if t.Status == store.EmbedActive && t.Label == WidgetLabel {
			if err := st.RevokeEmbedToken(ctx, a.ID, t.ID); err != nil {
				return "", fmt.Errorf("revoke old demo token: %w", err)
			}
		}
	}
	list, label, budget := strings.Join(domains, ","), WidgetLabel, "1.00"
	token, _, err := accounts.CreateEmbedToken(ctx, a, account.EmbedTokenInput{Domains: &list, Label: &label,
		DailyBudget: &budget})
	if err != nil {
		return "", fmt.Errorf("create demo token: %w", err)
	}
	return token, nil
}

// Page is the sample host page `svc demo` serves at /demo/: a plain shop page with the
// widget installed by its one script tag. Its own CSS is deliberately heavy-handed, to show
// that the widget's Shadow DOM keeps the host's styles out.
func Page(scriptURL, token, lang string) []byte {
	var b bytes.Buffer
	_ = pageTemplate.Execute(&b, map[string]string{"Script": scriptURL, "Token": token, "Lang": lang})
	return b.Bytes()
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Yolcu Outdoor: demo page with the svc widget</title>
<style>
  * { font-family: Georgia, serif !important; }
  body { margin: 0; background: #f4f1ea; color: #2b2b2b; }
  header { background: #234d20; color: #fff; padding: 1.2rem 2rem; }
  main { max-width: 46rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.6; }
  button, textarea, div { border-radius: 0 !important; }
  button { background: #c00 !important; color: yellow !important; }
  /* The script tag holds a long token and URL with no space to wrap at: on a phone it
     widened the page past the screen, pushing the fixed launcher and the widget's Send
     button off it. Break such words anywhere rather than overflow. */
  main { overflow-wrap: anywhere; }
  code { background: #e6e0d2; padding: .1rem .3rem; overflow-wrap: anywhere; word-break: break-all; }
</style>
</head>
<body>
<header><h1>Yolcu Outdoor</h1><p>Trekking, camping and travel gear (a demo shop)</p></header>
<main>
  <h2>This page has the svc widget installed</h2>
  <p>The chat button at the bottom right is the widget, added with one tag:</p>
  <p><code>&lt;script src="{{.Script}}" data-svc-token="{{.Token}}" data-svc-lang="{{.Lang}}" data-svc-color="#234d20" defer&gt;&lt;/script&gt;</code></p>
  <p>Ask it about delivery, returns or products, in English, Turkish or German:
  "How long does delivery take?", "İade süresi kaç gün?", "Welche Zelte habt ihr?".</p>
  <p>This page's own CSS turns every button red and every font to Georgia; the widget is not affected.</p>
</main>
<script src="{{.Script}}" data-svc-token="{{.Token}}" data-svc-lang="{{.Lang}}" data-svc-color="#234d20" defer></script>
</body>
</html>
`))
