package validate

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"svc/internal/openapi"
	"sync"
	"testing"
)

// Hand-written bodies, each the smallest that is valid, so that a case which changes one
// thing in them fails for that one thing.
const (
	userMsg      = `{"id":1,"role":"user","body":"Merhaba","source":"ai","created_at":"2026-11-21T15:04:05Z","sources":[]}`
	assistantMsg = `{"id":2,"role":"assistant","body":"Size nasıl yardımcı olabilirim?","source":"cache_shared","created_at":"2026-11-21T15:04:06.123Z","sources":[]}`
	productMsg   = `{"id":4,"role":"assistant","body":"Şu ürün uygun olabilir.","source":"ai","created_at":"2026-11-21T15:04:07Z",` +
		`"sources":[{"title":"Kargo","url":"https://shop.test/kargo"},{"title":"S.S.S.","url":""}],"products":[{"name":"Koşu Ayakkabısı","url":"https://shop.test/p/1","price":"1.499,90 TL","category":"Ayakkabı","image":"https://shop.test/i/1.jpg"},{"name":"Çorap"}]}`

	startOK   = `{"success":true,"data":{"conversationId":7,"lang":"tr","messages":[` + userMsg + `,` + assistantMsg + `]}}`
	sendOK    = `{"success":true,"data":{"conversationId":7,"messages":[` + userMsg + `,` + productMsg + `],"lowConfidence":false}}`
	syncOK    = `{"success":true,"data":{"conversationId":7,"messages":[]}}`
	suggestOK = `{"success":true,"data":{"articles":[{"id":1,"slug":"iade","title":"İade","excerpt":"30 gün","category_slug":"destek","category_name":"Destek","view_count":0}],"seeds":["Kargo ne kadar sürer?"]}}`
	feedOK    = `{"success":true,"data":{"saved":true}}`
	apiKeyOK  = `{"success":true,"data":{"apiKey":{"id":1,"api_key_prefix":"svc_pk_0a1b2c3d","status":"active","last_used_at":"2026-11-21T15:04:05Z","created_at":"2026-11-01T00:00:00Z"},` +
		`"balance":12.5,"pricing":{"input_per_m_usd":3,"output_per_m_usd":25,"typical_ai_usd":0.0355}}}`
	usageOK = `{"success":true,"data":{"window_days":30,"by_event":{"answer":{"count":1,"cost":0.0355}},"total_cost":0.0355,"total_events":1,` +
		`"all_time":{"events":1,"cost":0.0355},"recent":[{"id":1,"event_type":"answer","cost_usd":0.0355,"created_at":"2026-11-21T15:04:05Z"}],"price_per_message_usd":0.0355}}`
	toneOK   = `{"success":true,"data":{"preset":"professional","custom":"","presets":["professional","warm","energetic"]}}`
	healthOK = `{"success":true,"data":{"status":"ok"}}`

	embedToken = `{"id":4,"token":"svc_emb_Q7xK2mPa…","label":"Shop","allowed_domains":["shop.test"],"daily_budget_usd":"1.0000",` +
		`"show_sources":true,"title":"","welcome":"Hi!","welcome_tr":"","welcome_en":"","welcome_de":"Hallo!","position":"right","offset_x":20,` +
		`"offset_y":20,"theme":"dark","avatar_url":"","avatar_src":"","launcher_label":"","panel_width":380,"panel_height":620,"starters":[],"inline":"",` +
		`"status":"active","today_spend_usd":0.0355,"budget_used_pct":3,"conversations":1,"visitors":1,"last_used_at":null,"created_at":"2026-11-01T00:00:00Z"}`
	embedTokensOK  = `{"success":true,"data":{"tokens":[` + embedToken + `]}}`
	tokenCreateOK  = `{"success":true,"data":{"token":"svc_emb_Q7xK2mPa9dLr4TzW1vNc8YhB5sQe0JuF","id":4}}`
	embedStartOK   = `{"success":true,"data":{"conversationId":9,"lang":"en","name":"Shop","mode":"normal","maxMessageChars":1000,"showSources":true,"messages":[]}}`
	embedStartBusy = `{"success":true,"data":{"conversationId":9,"lang":"en","name":"Shop","mode":"cache_only","reason":"surge","maxMessageChars":1000,"showSources":true,"messages":[]}}`
	embedSendOK    = `{"success":true,"data":{"conversationId":9,"messages":[` + userMsg + `,` + assistantMsg + `],"lowConfidence":false,"mode":"normal"}}`
)

func errBody(code string) string {
	return fmt.Sprintf(`{"success":false,"error":%q,"message":"Something about %s."}`, code, code)
}

func TestValidateResponse(t *testing.T) {
	v, err := NewValidator()
	if err != nil {
		t.Fatalf("NewValidator: %v", err)
	}
	jsonCT := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
	retry := func(s string) http.Header {
		return http.Header{"Content-Type": {"application/json"}, "Retry-After": {s}}
	}

	tests := []struct {
		name   string
		method string
		url    string
		status int
		header http.Header // jsonCT when nil
		body   string
		want   []string // substrings of the error, in any order; none means valid
	}{
		// Every documented success, as the server should send it.
		{name: "start", method: "GET", url: "/api/v1/chat/start", status: 200, body: startOK},
		{name: "send with products", method: "POST", url: "/api/v1/chat/send", status: 200, body: sendOK},
		{name: "suggestions", method: "GET", url: "/api/v1/chat/suggestions", status: 200, body: suggestOK},
		{name: "sync empty", method: "GET", url: "/api/v1/chat/sync?sinceId=2", status: 200, body: syncOK},
		{name: "feedback", method: "POST", url: "/api/v1/chat/feedback", status: 200, body: feedOK},
		{name: "apiKey", method: "GET", url: "/api/v1/chat/apiKey", status: 200, body: apiKeyOK},
		{name: "usageSummary", method: "GET", url: "/api/v1/chat/usageSummary", status: 200, body: usageOK},
		{name: "getTone", method: "GET", url: "/api/v1/chat/getTone", status: 200, body: toneOK},
		{name: "healthz", method: "GET", url: "/healthz", status: 200, body: healthOK},
		{name: "healthz HEAD has no body", method: "HEAD", url: "/healthz", status: 200, body: ""},
		{name: "readyz", method: "GET", url: "/readyz", status: 200, body: `{"success":true,"data":{"status":"ok","database":"ok","redis":"fallback"}}`},
		{name: "readyz store down", method: "GET", url: "/readyz", status: 503, header: retry("5"), body: errBody("server_error")},
		{name: "readyz store down must say when to retry", method: "GET", url: "/readyz", status: 503, body: errBody("server_error"),
			want: []string{"header Retry-After: required but missing"}},
		{name: "openapi document", method: "GET", url: "/api/v1/openapi.json", status: 200, body: string(openapi.Document())},
		{name: "absolute url", method: "GET", url: "http://127.0.0.1:8080/api/v1/chat/start", status: 200, body: startOK},

		// Documented errors.
		{name: "401", method: "GET", url: "/api/v1/chat/start", status: 401, body: errBody("unauthorized")},
		{name: "send 400", method: "POST", url: "/api/v1/chat/send", status: 400, body: errBody("bad_request")},
		{name: "send 413 is bad_request", method: "POST", url: "/api/v1/chat/send", status: 413, body: errBody("bad_request")},
		{name: "send 429 rate_limited", method: "POST", url: "/api/v1/chat/send", status: 429, header: retry("30"), body: errBody("rate_limited")},
		{name: "send 429 limit_reached", method: "POST", url: "/api/v1/chat/send", status: 429, header: retry("3600"), body: errBody("limit_reached")},
		{name: "feedback 404", method: "POST", url: "/api/v1/chat/feedback", status: 404, body: errBody("not_found")},
		{name: "500", method: "GET", url: "/api/v1/chat/getTone", status: 500, body: errBody("server_error")},
		{name: "503 database down", method: "POST", url: "/api/v1/chat/send", status: 503, header: retry("5"), body: errBody("server_error")},
		{name: "wrong method 405", method: "POST", url: "/api/v1/chat/start", status: 405,
			header: http.Header{"Content-Type": {"application/json"}, "Allow": {"GET"}}, body: errBody("method_not_allowed")},
		{name: "wrong method must be 405", method: "DELETE", url: "/api/v1/chat/send", status: 200, body: sendOK,
			want: []string{"/api/v1/chat/send does not take DELETE", "must be 405, got 200"}},
		{name: "405 with another code", method: "GET", url: "/api/v1/chat/send", status: 405, body: errBody("not_found"),
			want: []string{"body /error", "method_not_allowed"}},

		// Field-level mismatches name the JSON pointer.
		{name: "missing required field", method: "GET", url: "/api/v1/chat/start", status: 200,
			body: strings.Replace(startOK, `"lang":"tr",`, ``, 1),
			want: []string{"[chatStart] 200", "body /data", "missing property 'lang'"}},
		{name: "wrong enum value", method: "GET", url: "/api/v1/chat/start", status: 200,
			body: strings.Replace(startOK, `"source":"ai"`, `"source":"bogus"`, 1),
			want: []string{"body /data/messages/0/source", "must be one of"}},
		{name: "wrong type", method: "GET", url: "/api/v1/chat/start", status: 200,
			body: strings.Replace(startOK, `"conversationId":7`, `"conversationId":"7"`, 1),
			want: []string{"body /data/conversationId", "want integer"}},
		{name: "fraction for an integer", method: "GET", url: "/api/v1/chat/sync", status: 200,
			body: strings.Replace(syncOK, `"conversationId":7`, `"conversationId":7.5`, 1),
			want: []string{"body /data/conversationId"}},
		{name: "extra field on a closed object", method: "GET", url: "/api/v1/chat/start", status: 200,
			body: strings.Replace(startOK, `"body":"Merhaba",`, `"body":"Merhaba","text":"Merhaba",`, 1),
			want: []string{"body /data/messages/0", "additional properties 'text' not allowed"}},
		{name: "extra field in the envelope", method: "GET", url: "/healthz", status: 200,
			body: `{"success":true,"data":{"status":"ok"},"error":null}`,
			want: []string{"body /", "additional properties 'error'"}},
		{name: "local time instead of UTC", method: "GET", url: "/api/v1/chat/start", status: 200,
			body: strings.Replace(startOK, `2026-11-21T15:04:05Z`, `2026-11-21T18:04:05+03:00`, 1),
			want: []string{"body /data/messages/0/created_at"}},
		{name: "not a date-time", method: "GET", url: "/api/v1/chat/usageSummary", status: 200,
			body: strings.Replace(usageOK, `2026-11-21T15:04:05Z`, `2026-13-21T15:04:05Z`, 1),
			want: []string{"body /data/recent/0/created_at"}},
		{name: "message without sources", method: "GET", url: "/api/v1/chat/start", status: 200,
			body: strings.Replace(startOK, `,"sources":[]`, ``, 1),
			want: []string{"body /data/messages/0", "missing property 'sources'"}},
		{name: "source without a title", method: "POST", url: "/api/v1/chat/send", status: 200,
			body: strings.Replace(sendOK, `{"title":"Kargo",`, `{"title":"",`, 1),
			want: []string{"body /data/messages/1/sources/0/title"}},
		{name: "source without its url field", method: "POST", url: "/api/v1/chat/send", status: 200,
			body: strings.Replace(sendOK, `{"title":"S.S.S.","url":""}`, `{"title":"S.S.S."}`, 1),
			want: []string{"body /data/messages/1/sources/1", "missing property 'url'"}},
		{name: "embed start without the sources setting", method: "GET", url: "/api/v1/embed/start", status: 200,
			body: strings.Replace(embedStartOK, `"showSources":true,`, ``, 1),
			want: []string{"missing property 'showSources'"}},
		{name: "send reply before question", method: "POST", url: "/api/v1/chat/send", status: 200,
			body: `{"success":true,"data":{"conversationId":7,"messages":[` + assistantMsg + `,` + userMsg + `],"lowConfidence":false}}`,
			want: []string{"body /data/messages/0/role", "body /data/messages/1/role"}},
		{name: "send with only the question", method: "POST", url: "/api/v1/chat/send", status: 200,
			body: `{"success":true,"data":{"conversationId":7,"messages":[` + userMsg + `],"lowConfidence":true}}`,
			want: []string{"body /data/messages", "minItems"}},
		{name: "too many product cards", method: "POST", url: "/api/v1/chat/send", status: 200,
			body: strings.Replace(sendOK, `{"name":"Çorap"}`, strings.Repeat(`{"name":"Çorap"},`, 8)+`{"name":"Çorap"}`, 1),
			want: []string{"body /data/messages/1/products", "maxItems"}},
		{name: "product without name", method: "POST", url: "/api/v1/chat/send", status: 200,
			body: strings.Replace(sendOK, `{"name":"Çorap"}`, `{"price":"10 TL"}`, 1),
			want: []string{"body /data/messages/1/products/1", "missing property 'name'"}},
		{name: "bad key prefix", method: "GET", url: "/api/v1/chat/apiKey", status: 200,
			body: strings.Replace(apiKeyOK, `svc_pk_0a1b2c3d`, `svc_pk_0A1B2C3D99`, 1),
			want: []string{"body /data/apiKey/api_key_prefix"}},
		{name: "unknown tone preset", method: "GET", url: "/api/v1/chat/getTone", status: 200,
			body: strings.Replace(toneOK, `"preset":"professional"`, `"preset":"casual"`, 1),
			want: []string{"body /data/preset"}},
		{name: "error envelope with a made-up code", method: "GET", url: "/api/v1/chat/start", status: 401,
			body: errBody("Error"), want: []string{"body /error"}},
		{name: "error envelope claiming success", method: "GET", url: "/api/v1/chat/start", status: 500,
			body: `{"success":true,"error":"server_error","message":"x"}`, want: []string{"body /success"}},

		// Statuses, headers and media types.
		{name: "undocumented status", method: "GET", url: "/api/v1/chat/start", status: 418, body: errBody("bad_request"),
			want: []string{"[chatStart] 418", "status 418 is not documented", "200, 401, 405, 500"}},
		{name: "429 without Retry-After", method: "POST", url: "/api/v1/chat/send", status: 429, body: errBody("rate_limited"),
			want: []string{"header Retry-After: required but missing"}},
		{name: "429 with a date in Retry-After", method: "POST", url: "/api/v1/chat/send", status: 429,
			header: retry("Wed, 21 Oct 2026 07:28:00 GMT"), body: errBody("rate_limited"),
			want: []string{"header Retry-After", "is not a valid integer"}},
		{name: "429 with fractional Retry-After", method: "POST", url: "/api/v1/chat/send", status: 429,
			header: retry("1.5"), body: errBody("rate_limited"), want: []string{"header Retry-After"}},
		{name: "429 with zero Retry-After", method: "POST", url: "/api/v1/chat/send", status: 429,
			header: retry("0"), body: errBody("rate_limited"), want: []string{"header Retry-After", "minimum"}},
		{name: "429 on an action that is not limited", method: "GET", url: "/api/v1/chat/start", status: 429,
			header: retry("5"), body: errBody("rate_limited"), want: []string{"status 429 is not documented"}},
		{name: "text/plain body", method: "GET", url: "/api/v1/chat/start", status: 200,
			header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}}, body: startOK,
			want: []string{"Content-Type", `"text/plain" is not documented`}},
		{name: "no Content-Type", method: "GET", url: "/api/v1/chat/start", status: 200,
			header: http.Header{}, body: startOK, want: []string{"Content-Type: missing"}},
		{name: "body is not JSON", method: "GET", url: "/api/v1/chat/start", status: 500,
			body: "Internal Server Error\n", want: []string{"body: not JSON"}},
		{name: "two JSON values", method: "GET", url: "/healthz", status: 200,
			body: healthOK + healthOK, want: []string{"body: not JSON"}},

		// Paths outside the document.
		{name: "unknown path 404", method: "GET", url: "/nope", status: 404, body: errBody("not_found")},
		{name: "unknown path must be 404", method: "GET", url: "/nope", status: 200, body: healthOK,
			want: []string{"no documented path matches", "got 200"}},
		{name: "unknown path with another code", method: "GET", url: "/api/v2/chat/start", status: 404,
			body: errBody("unknown_action"), want: []string{"(unlisted path)", "body /error"}},
		{name: "too deep under chat is unlisted", method: "POST", url: "/api/v1/chat/send/x", status: 404, body: errBody("not_found")},
		{name: "unknown action", method: "GET", url: "/api/v1/chat/bogus", status: 404, body: errBody("unknown_action")},
		{name: "unknown action by POST", method: "POST", url: "/api/v1/chat/bogus", status: 404, body: errBody("unknown_action")},
		{name: "unknown action without key", method: "GET", url: "/api/v1/chat/bogus", status: 401, body: errBody("unauthorized")},
		{name: "unknown action answers not_found", method: "GET", url: "/api/v1/chat/bogus", status: 404, body: errBody("not_found"),
			want: []string{"(as /api/v1/chat/{action})", "[chatUnknownActionGet]", "body /error"}},
		{name: "unknown action by PUT is undocumented", method: "PUT", url: "/api/v1/chat/bogus", status: 404,
			body: errBody("unknown_action"), want: []string{"method PUT is not documented"}},

		// The legacy form is checked as the action it names.
		{name: "legacy start", method: "GET", url: "/api.php?endpoint=chat&action=start", status: 200, body: startOK},
		{name: "legacy send", method: "POST", url: "/api.php?endpoint=chat&action=send", status: 200, body: sendOK},
		{name: "legacy sync with sinceId", method: "GET", url: "/api.php?endpoint=chat&action=sync&sinceId=5", status: 200, body: syncOK},
		{name: "legacy maps to its action", method: "GET", url: "/api.php?endpoint=chat&action=start", status: 200, body: syncOK,
			want: []string{"(as /api/v1/chat/start)", "[chatStart]", "missing property 'lang'"}},
		{name: "legacy wrong method", method: "GET", url: "/api.php?endpoint=chat&action=send", status: 405, body: errBody("method_not_allowed")},
		{name: "legacy wrong method must be 405", method: "GET", url: "/api.php?endpoint=chat&action=send", status: 200, body: sendOK,
			want: []string{"(as /api/v1/chat/send)", "must be 405"}},
		{name: "legacy 429", method: "POST", url: "/api.php?endpoint=chat&action=send", status: 429, header: retry("10"), body: errBody("rate_limited")},
		{name: "legacy 429 without Retry-After", method: "POST", url: "/api.php?endpoint=chat&action=send", status: 429,
			body: errBody("rate_limited"), want: []string{"Retry-After"}},
		{name: "legacy unknown action", method: "POST", url: "/api.php?endpoint=chat&action=bogus", status: 404, body: errBody("unknown_action")},
		{name: "legacy action with a slash", method: "GET", url: "/api.php?endpoint=chat&action=a%2Fb", status: 404, body: errBody("unknown_action")},
		{name: "legacy other endpoint", method: "GET", url: "/api.php?endpoint=intelligence&action=start", status: 404, body: errBody("not_found")},
		{name: "legacy without action", method: "GET", url: "/api.php?endpoint=chat", status: 400, body: errBody("bad_request")},
		{name: "legacy without action is no success", method: "GET", url: "/api.php?endpoint=chat", status: 200, body: healthOK,
			want: []string{"[legacyChatGet] 200", "body /data"}},
	}
	js := http.Header{"Content-Type": {"text/javascript; charset=utf-8"}, "Etag": {`"0123456789abcdef0123456789abcdef"`},
		"Cache-Control": {"public, max-age=300"}}
	cors := http.Header{"Access-Control-Allow-Origin": {"https://shop.test"}, "Access-Control-Allow-Methods": {"GET, POST"},
		"Access-Control-Allow-Headers": {"Content-Type, X-SVC-Embed-Token, X-SVC-Visitor"}, "Access-Control-Max-Age": {"600"}}
	tests = append(tests, []struct {
		name   string
		method string
		url    string
		status int
		header http.Header
		body   string
		want   []string
	}{
		// Embed-token management, also through the legacy form.
		{name: "embedTokens", method: "GET", url: "/api/v1/chat/embedTokens", status: 200, body: embedTokensOK},
		{name: "embedTokens shows no full token", method: "GET", url: "/api/v1/chat/embedTokens", status: 200,
			body: strings.Replace(embedTokensOK, `svc_emb_Q7xK2mPa…`, `svc_emb_Q7xK2mPa9dLr4TzW1vNc8YhB5sQe0JuF`, 1),
			want: []string{"body /data/tokens/0/token"}},
		{name: "embedTokens budget with 2 decimals", method: "GET", url: "/api/v1/chat/embedTokens", status: 200,
			body: strings.Replace(embedTokensOK, `"1.0000"`, `"1.00"`, 1), want: []string{"body /data/tokens/0/daily_budget_usd"}},
		{name: "embedTokenCreate", method: "POST", url: "/api/v1/chat/embedTokenCreate", status: 200, body: tokenCreateOK},
		{name: "embedTokenCreate limit_reached is 400", method: "POST", url: "/api/v1/chat/embedTokenCreate", status: 400, body: errBody("limit_reached")},
		{name: "embedTokenUpdate 400 is bad_request only", method: "POST", url: "/api/v1/chat/embedTokenUpdate", status: 400,
			body: errBody("limit_reached"), want: []string{"body /error"}},
		{name: "embedTokenRevoke unknown id", method: "POST", url: "/api/v1/chat/embedTokenRevoke", status: 404, body: errBody("not_found")},
		{name: "legacy embedTokenCreate", method: "POST", url: "/api.php?endpoint=chat&action=embedTokenCreate", status: 400, body: errBody("limit_reached")},

		// The widget's surface.
		{name: "embed start", method: "GET", url: "/api/v1/embed/start?lang=de", status: 200, body: embedStartOK},
		{name: "embed start cache-only", method: "GET", url: "/api/v1/embed/start", status: 200, body: embedStartBusy},
		{name: "embed cache-only needs a reason", method: "GET", url: "/api/v1/embed/start", status: 200,
			body: strings.Replace(embedStartBusy, `"reason":"surge",`, ``, 1), want: []string{"missing property 'reason'"}},
		{name: "embed normal has no reason", method: "GET", url: "/api/v1/embed/start", status: 200,
			body: strings.Replace(embedStartOK, `"mode":"normal",`, `"mode":"normal","reason":"budget",`, 1), want: []string{"body /data"}},
		{name: "embed send", method: "POST", url: "/api/v1/embed/send", status: 200, body: embedSendOK},
		{name: "embed 403", method: "POST", url: "/api/v1/embed/send", status: 403, body: errBody("forbidden")},
		{name: "embed 429 needs Retry-After", method: "GET", url: "/api/v1/embed/sync", status: 429, body: errBody("rate_limited"),
			want: []string{"header Retry-After: required but missing"}},
		{name: "embed feedback 404", method: "POST", url: "/api/v1/embed/feedback", status: 404, body: errBody("not_found")},
		{name: "embed action out of scope", method: "GET", url: "/api/v1/embed/apiKey", status: 403, body: errBody("forbidden")},
		{name: "embed action out of scope by PUT", method: "PUT", url: "/api/v1/embed/apiKey", status: 403, body: errBody("forbidden")},
		{name: "embed wrong method refused for the token first", method: "POST", url: "/api/v1/embed/start", status: 401, body: errBody("unauthorized")},
		{name: "embed wrong method 405", method: "GET", url: "/api/v1/embed/send", status: 405, body: errBody("method_not_allowed")},
		{name: "embed wrong method is never a success", method: "DELETE", url: "/api/v1/embed/send", status: 200, body: embedSendOK,
			want: []string{"[DELETE on /api/v1/embed/send] 200", "not documented for other methods", "401, 403, 405, 429, 500"}},
		{name: "preflight", method: "OPTIONS", url: "/api/v1/embed/send", status: 204, header: cors},
		{name: "preflight of any action", method: "OPTIONS", url: "/api/v1/embed/bogus", status: 204, header: cors},
		{name: "preflight has no body", method: "OPTIONS", url: "/api/v1/embed/send", status: 204, header: cors, body: "{}",
			want: []string{"describes no body"}},
		{name: "preflight needs its headers", method: "OPTIONS", url: "/api/v1/embed/start", status: 204, header: http.Header{},
			want: []string{"header Access-Control-Allow-Origin: required but missing"}},
		{name: "preflight refused", method: "OPTIONS", url: "/api/v1/embed/start", status: 403, body: errBody("forbidden")},

		// The widget script and the demo page.
		{name: "widget.js", method: "GET", url: "/widget.js", status: 200, header: js, body: "(()=>{})();"},
		{name: "widget.js HEAD", method: "HEAD", url: "/widget.js", status: 200, header: js},
		{name: "widget.js 304", method: "GET", url: "/widget.js", status: 304, header: http.Header{"Etag": {`"0123456789abcdef0123456789abcdef"`}}},
		{name: "widget.js needs its ETag", method: "GET", url: "/widget.js", status: 200,
			header: http.Header{"Content-Type": {"text/javascript"}, "Cache-Control": {"no-store"}}, body: "x", want: []string{"header ETag"}},
		{name: "widget.js POST", method: "POST", url: "/widget.js", status: 405, body: errBody("method_not_allowed")},
		{name: "demo page", method: "GET", url: "/demo/", status: 200, header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, body: "<!doctype html>"},
		{name: "demo page outside svc demo", method: "GET", url: "/demo/", status: 404, body: errBody("not_found")},
	}...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, err := url.Parse(tc.url)
			if err != nil {
				t.Fatal(err)
			}
			h := tc.header
			if h == nil {
				h = jsonCT
			}
			err = v.ValidateResponse(tc.method, u, tc.status, h, []byte(tc.body))
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("want valid, got:\n%v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("want an error mentioning %q, got none", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not mention %q:\n%v", w, err)
				}
			}
		})
	}
}

// TestValidatorConcurrent shows one Validator may serve parallel tests; run with -race.
func TestValidatorConcurrent(t *testing.T) {
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	u := &url.URL{Path: "/api/v1/chat/send"}
	h := http.Header{"Content-Type": {"application/json"}}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() {
			errs <- v.ValidateResponse("POST", u, 200, h, []byte(sendOK))
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// recorder is a TB that keeps what Check reports instead of failing the test.
type recorder struct{ errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestCheck(t *testing.T) {
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		body    string
		wantErr string
	}{
		{name: "documented", body: toneOK},
		{name: "drifted", body: strings.Replace(toneOK, `"custom":"",`, ``, 1), wantErr: "missing property 'custom'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/api/v1/chat/getTone", nil)
			rec := httptest.NewRecorder()
			rec.Header().Set("Content-Type", "application/json")
			rec.WriteHeader(http.StatusOK)
			rec.WriteString(tc.body)
			resp := rec.Result()

			var r recorder
			v.Check(&r, req, resp, []byte(tc.body))
			switch {
			case tc.wantErr == "" && len(r.errs) > 0:
				t.Fatalf("want no report, got %q", r.errs)
			case tc.wantErr != "" && (len(r.errs) != 1 || !strings.Contains(r.errs[0], tc.wantErr)):
				t.Fatalf("want one report mentioning %q, got %q", tc.wantErr, r.errs)
			}
		})
	}
	var _ TB = t // *testing.T must satisfy TB, or Check is useless in tests
}
