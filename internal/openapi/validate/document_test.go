package validate

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"svc/internal/openapi"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// parsed returns the document decoded into plain Go values.
func parsed(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(openapi.Document(), &doc); err != nil {
		t.Fatalf("document is not JSON: %v", err)
	}
	return doc
}

func TestDocumentDeclaresOpenAPI31(t *testing.T) {
	doc := parsed(t)
	if got := doc["openapi"]; got != "3.1.0" {
		t.Errorf("openapi = %v, want 3.1.0", got)
	}
	info, _ := doc["info"].(map[string]any)
	for _, k := range []string{"title", "version", "description"} {
		if s, _ := info[k].(string); s == "" {
			t.Errorf("info.%s is empty", k)
		}
	}
}

func TestDocumentReturnsACopy(t *testing.T) {
	a := openapi.Document()
	a[0] = 'X'
	if b := openapi.Document(); b[0] != '{' {
		t.Fatalf("changing one openapi.Document() result changed the next: %q", b[0])
	}
}

// TestSurface pins the paths, methods, operation ids and statuses, so that an endpoint
// added to the server without being documented here (or the reverse) is a conscious
// change to this table.
func TestSurface(t *testing.T) {
	chat := []string{"200", "401", "405", "500"}
	token := []string{"200", "400", "401", "405", "413", "500"}
	embedGet := []string{"200", "400", "401", "403", "405", "429", "500"}
	embedPost := []string{"200", "400", "401", "403", "405", "413", "429", "500"}
	preflight := []string{"204", "403", "500"}
	generate := []string{"200", "400", "401", "405", "413", "429", "500"}
	kbRead := []string{"200", "400", "401", "405", "429", "500"}
	kbWrite := []string{"200", "400", "401", "404", "405", "413", "429", "500"}
	const embed = "embedToken" // the one scheme of the widget's surface
	want := map[string]map[string]struct {
		id       string
		statuses []string
		open     bool   // needs no key
		scheme   string // declares this one scheme instead of the document's secret key
	}{
		"/api/v1/chat/start":            {"get": {id: "chatStart", statuses: chat}},
		"/api/v1/chat/send":             {"post": {id: "chatSend", statuses: []string{"200", "400", "401", "405", "413", "429", "500"}}},
		"/api/v1/chat/suggestions":      {"get": {id: "chatSuggestions", statuses: chat}},
		"/api/v1/chat/sync":             {"get": {id: "chatSync", statuses: []string{"200", "400", "401", "405", "500"}}},
		"/api/v1/chat/feedback":         {"post": {id: "chatFeedback", statuses: []string{"200", "400", "401", "404", "405", "413", "500"}}},
		"/api/v1/chat/apiKey":           {"get": {id: "chatApiKey", statuses: chat}},
		"/api/v1/chat/usageSummary":     {"get": {id: "chatUsageSummary", statuses: chat}},
		"/api/v1/chat/getTone":          {"get": {id: "chatGetTone", statuses: chat}},
		"/api/v1/chat/embedTokens":      {"get": {id: "chatEmbedTokens", statuses: chat}},
		"/api/v1/chat/embedTokenCreate": {"post": {id: "chatEmbedTokenCreate", statuses: token}},
		"/api/v1/chat/embedTokenUpdate": {"post": {id: "chatEmbedTokenUpdate", statuses: []string{"200", "400", "401", "404", "405", "413", "500"}}},
		"/api/v1/chat/embedTokenRevoke": {"post": {id: "chatEmbedTokenRevoke", statuses: []string{"200", "400", "401", "404", "405", "413", "500"}}},

		// The marketing generator and the Intelligence API.
		"/api/v1/chat/marketingGenerate": {"post": {id: "chatMarketingGenerate", statuses: generate}},
		"/api/v1/intelligence/{op}":      {"post": {id: "intelligenceOp", statuses: []string{"200", "400", "401", "404", "405", "413", "429", "500"}}},

		// The knowledge-base API.
		"/api/v1/kb/documents":      {"get": {id: "kbDocuments", statuses: kbRead}},
		"/api/v1/kb/documentUpload": {"post": {id: "kbDocumentUpload", statuses: kbWrite}},
		"/api/v1/kb/documentDelete": {"post": {id: "kbDocumentDelete", statuses: kbWrite}},
		"/api/v1/kb/qaCreate":       {"post": {id: "kbQACreate", statuses: []string{"200", "400", "401", "405", "413", "429", "500"}}},
		"/api/v1/kb/qaUpdate":       {"post": {id: "kbQAUpdate", statuses: kbWrite}},
		"/api/v1/kb/qaDelete":       {"post": {id: "kbQADelete", statuses: kbWrite}},
		"/api/v1/kb/productsUpsert": {"post": {id: "kbProductsUpsert", statuses: kbWrite}},
		"/api/v1/kb/import":         {"post": {id: "kbImport", statuses: kbWrite}},
		"/api/v1/kb/crawlStart":     {"post": {id: "kbCrawlStart", statuses: kbWrite}},
		"/api/v1/kb/crawlStatus":    {"get": {id: "kbCrawlStatus", statuses: []string{"200", "400", "401", "404", "405", "429", "500"}}},
		"/api/v1/kb/{action}": {
			"get":  {id: "kbUnknownActionGet", statuses: []string{"401", "404", "500"}},
			"post": {id: "kbUnknownActionPost", statuses: []string{"401", "404", "500"}},
		},

		"/api/v1/chat/{action}": {
			"get":  {id: "chatUnknownActionGet", statuses: []string{"401", "404", "500"}},
			"post": {id: "chatUnknownActionPost", statuses: []string{"401", "404", "500"}},
		},
		"/api.php": {
			"get":  {id: "legacyChatGet", statuses: []string{"200", "400", "401", "404", "405", "500"}},
			"post": {id: "legacyChatPost", statuses: []string{"200", "400", "401", "404", "405", "413", "429", "500"}},
		},
		"/api/v1/embed/start": {
			"get":     {id: "embedStart", statuses: embedGet, scheme: embed},
			"options": {id: "embedStartPreflight", statuses: preflight, open: true},
		},
		"/api/v1/embed/send": {
			"post":    {id: "embedSend", statuses: embedPost, scheme: embed},
			"options": {id: "embedSendPreflight", statuses: preflight, open: true},
		},
		"/api/v1/embed/sync": {
			"get":     {id: "embedSync", statuses: embedGet, scheme: embed},
			"options": {id: "embedSyncPreflight", statuses: preflight, open: true},
		},
		"/api/v1/embed/suggestions": {
			"get":     {id: "embedSuggestions", statuses: embedGet, scheme: embed},
			"options": {id: "embedSuggestionsPreflight", statuses: preflight, open: true},
		},
		"/api/v1/embed/feedback": {
			"post":    {id: "embedFeedback", statuses: []string{"200", "400", "401", "403", "404", "405", "413", "429", "500"}, scheme: embed},
			"options": {id: "embedFeedbackPreflight", statuses: preflight, open: true},
		},
		"/api/v1/embed/settings": {
			"get":     {id: "embedSettings", statuses: []string{"200", "304", "400", "401", "403", "405", "429", "500"}, scheme: embed},
			"options": {id: "embedSettingsPreflight", statuses: preflight, open: true},
		},
		"/api/v1/embed/{action}": {
			"get":     {id: "embedUnknownActionGet", statuses: []string{"401", "403", "429", "500"}, scheme: embed},
			"post":    {id: "embedUnknownActionPost", statuses: []string{"401", "403", "429", "500"}, scheme: embed},
			"options": {id: "embedUnknownActionPreflight", statuses: preflight, open: true},
		},
		"/widget.js":            {"get": {id: "widgetScript", statuses: []string{"200", "304", "405"}, open: true}},
		"/widget/avatar/{file}": {"get": {id: "widgetAvatar", statuses: []string{"200", "304", "404", "405"}, open: true}},
		"/demo/":                {"get": {id: "demoPage", statuses: []string{"200", "404"}, open: true}},
		"/healthz":              {"get": {id: "healthz", statuses: []string{"200"}, open: true}},
		"/readyz":               {"get": {id: "readyz", statuses: []string{"200", "503"}, open: true}},
		"/api/v1/openapi.json":  {"get": {id: "openapiDocument", statuses: []string{"200"}, open: true}},
	}

	doc := parsed(t)
	paths, _ := doc["paths"].(map[string]any)
	if got, exp := sortedKeys(paths), sortedKeys(want); !slices.Equal(got, exp) {
		t.Fatalf("paths = %v, want %v", got, exp)
	}
	seen := map[string]string{}
	for path, ops := range want {
		item, _ := paths[path].(map[string]any)
		var methods []string
		for _, m := range []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"} {
			if _, ok := item[m]; ok {
				methods = append(methods, m)
			}
		}
		slices.Sort(methods)
		if exp := sortedKeys(ops); !slices.Equal(methods, exp) {
			t.Errorf("%s: methods %v, want %v", path, methods, exp)
		}
		for m, w := range ops {
			op, _ := item[m].(map[string]any)
			where := m + " " + path
			id, _ := op["operationId"].(string)
			if id != w.id {
				t.Errorf("%s: operationId %q, want %q", where, id, w.id)
			}
			if prev, dup := seen[id]; dup {
				t.Errorf("%s: operationId %q also used by %s", where, id, prev)
			}
			seen[id] = where
			if s, _ := op["summary"].(string); s == "" {
				t.Errorf("%s: no summary", where)
			}
			resps, _ := op["responses"].(map[string]any)
			if got, exp := sortedKeys(resps), withUnavailable(w.statuses); !slices.Equal(got, exp) {
				t.Errorf("%s: statuses %v, want %v", where, got, exp)
			}
			sec, declared := op["security"].([]any)
			switch {
			case w.open:
				if !declared || len(sec) != 0 {
					t.Errorf("%s: must declare security: [] (no key)", where)
				}
			case w.scheme != "":
				var req map[string]any
				if len(sec) == 1 {
					req, _ = sec[0].(map[string]any)
				}
				if _, ok := req[w.scheme]; !ok || len(req) != 1 {
					t.Errorf("%s: must declare security: [{%q: []}] and nothing else", where, w.scheme)
				}
			case declared:
				t.Errorf("%s: must inherit the document's security", where)
			}
		}
	}
}

// TestRefsResolve walks the whole document: every $ref must point at something, and every
// component must be used by some $ref, so that nothing is defined twice or left to rot.
func TestRefsResolve(t *testing.T) {
	doc := parsed(t)
	used := map[string]bool{}
	var walk func(node any, at string)
	walk = func(node any, at string) {
		switch n := node.(type) {
		case map[string]any:
			if ref, ok := n["$ref"].(string); ok {
				if _, err := lookupRef(doc, ref); err != nil {
					t.Errorf("#%s: %v", at, err)
				}
				used[ref] = true
			}
			for k, v := range n {
				walk(v, at+"/"+escapeToken(k))
			}
		case []any:
			for i, v := range n {
				walk(v, fmt.Sprintf("%s/%d", at, i))
			}
		}
	}
	walk(doc, "")
	if len(used) == 0 {
		t.Fatal("no $ref found; the walk is broken")
	}

	components, _ := doc["components"].(map[string]any)
	for kind, group := range components {
		if kind == "securitySchemes" {
			continue // used by name in security requirements, not by $ref
		}
		for name := range group.(map[string]any) {
			ref := "#/components/" + kind + "/" + escapeToken(name)
			if !used[ref] {
				t.Errorf("%s is never referenced", ref)
			}
		}
	}
}

// TestExamplesValidate holds every media-type example against its schema, so the examples
// a reader copies are ones the server could really send.
func TestExamplesValidate(t *testing.T) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	raw, err := jsonschema.UnmarshalJSON(strings.NewReader(string(openapi.Document())))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource(docURL, raw); err != nil {
		t.Fatal(err)
	}
	b := builder{root: raw.(map[string]any), compiler: c}

	checked := 0
	// walk visits every object; media is true for the objects directly under a "content"
	// key, which are the media-type objects that carry examples.
	var walk func(node any, at string, media bool)
	walk = func(node any, at string, media bool) {
		n, ok := node.(map[string]any)
		if !ok {
			return
		}
		if media {
			if _, ok := n["schema"]; !ok {
				return
			}
			schema, err := b.compile(at + "/schema")
			if err != nil {
				t.Errorf("#%s: %v", at, err)
				return
			}
			var values []any
			if ex, ok := n["example"]; ok {
				values = append(values, ex)
			}
			exs, _ := n["examples"].(map[string]any)
			for name, ex := range exs {
				obj, _, err := b.resolve(ex, at+"/examples/"+escapeToken(name))
				if err != nil {
					t.Errorf("#%s: %v", at, err)
					continue
				}
				values = append(values, obj["value"])
			}
			for _, v := range values {
				checked++
				if err := schema.Validate(v); err != nil {
					t.Errorf("example at #%s does not match its schema:\n%v", at, err)
				}
			}
			return
		}
		for k, v := range n {
			if k == "content" {
				mts, _ := v.(map[string]any)
				for mt, m := range mts {
					walk(m, at+"/content/"+escapeToken(mt), true)
				}
				continue
			}
			walk(v, at+"/"+escapeToken(k), false)
		}
	}
	walk(raw, "", false)
	if checked < 10 {
		t.Errorf("only %d examples checked; the walk is broken or examples were lost", checked)
	}
}

// TestKinOpenAPIValidates runs the document through an independent implementation:
// kin-openapi v0.152 loads OpenAPI 3.1 and validates it, examples included, with JSON
// Schema 2020-12 semantics.
func TestKinOpenAPIValidates(t *testing.T) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openapi.Document())
	if err != nil {
		t.Fatalf("kin-openapi cannot load the document: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Fatalf("kin-openapi reads version %q as older than 3.1", doc.OpenAPI)
	}
	if err := doc.Validate(context.Background(), openapi3.EnableExamplesValidation()); err != nil {
		t.Fatalf("kin-openapi rejects the document: %v", err)
	}
}

func sortedKeys[M ~map[string]V, V any](m M) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// withUnavailable is statuses with 503 after 500: every operation that may answer 500 may
// also answer 503 when the database does not answer (the same failure, told apart).
func withUnavailable(statuses []string) []string {
	i := slices.Index(statuses, "500")
	if i < 0 || slices.Contains(statuses, "503") {
		return statuses
	}
	return slices.Insert(slices.Clone(statuses), i+1, "503")
}
