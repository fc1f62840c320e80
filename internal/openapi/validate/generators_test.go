package validate

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Bodies of the marketing generator and the Intelligence API, each the smallest that is
// valid, so that a case which changes one thing in them fails for that one thing.
const (
	leanMeta    = `"meta":{"lang":"en","grounded":true,"kb_used":2,"products":1,"tokens":300,"depth":"lean"}`
	leanContent = `{"headline":"Discover the tent","body":"It weighs 2.3 kg.","cta":"Order now","variants":["Worth a look","Take a closer look"],` +
		`"hashtags":["Tents"],"strategy_used":"FAB"}`
	leanOK = `{"success":true,"data":{"content":` + leanContent + `,` + leanMeta + `}}`

	experiment = `{"hypothesis":"Naming the product wins.","variant_a":"A","variant_b":"B","metric":"conversion rate"}`
	fullOK     = `{"success":true,"data":{"content":{"positioning":"P.","segment":"Hikers","funnel_stage":"conversion",` +
		`"angles":[{"name":"Product","hook":"Hook","message":"It weighs 2.3 kg."}],"objections":[{"objection":"Price?","response":"It costs $199.00."}],` +
		`"channel_adaptations":[{"channel":"Email","copy":"Copy.","notes":""}],"proof_points":[],"hashtags":[],` +
		`"strategy_rationale":"R.","next_experiment":` + experiment + `},` +
		`"meta":{"lang":"tr","grounded":false,"kb_used":0,"products":0,"tokens":0,"depth":"full"}}}`

	answerMeta  = `"meta":{"lang":"en","grounded":true,"kb_used":1,"products":0,"tokens":120,"depth":"lean"}`
	intelAnswer = `{"success":true,"data":{"op":"answer","format":"json","result":{"data":{"answer":"5–7 business days.",` +
		`"sources":[{"title":"Delivery","url":"","type":"qa","quote":"5–7 business days."}]}},` + answerMeta + `}}`
	intelText    = `{"success":true,"data":{"op":"summarize","format":"markdown","result":{"result":"## Key points"},` + answerMeta + `}}`
	dataMeta     = `"meta":{"lang":"de","grounded":true,"kb_used":0,"products":0,"tokens":0,"depth":"lean","total":1}`
	intelFAQ     = `{"success":true,"data":{"op":"data","format":"table","result":{"columns":["question","answer"],"rows":[["Q?","A."]]},` + dataMeta + `}}`
	intelRows    = `{"success":true,"data":{"op":"data","format":"json","result":{"data":[{"kind":"product","name":"Tents","slug":"","count":2}]},` + dataMeta + `}}`
	intelNoRows  = `{"success":true,"data":{"op":"data","format":"json","result":{"data":[]},` + dataMeta + `}}`
	intelCompare = `{"success":true,"data":{"op":"compare","format":"table","result":{"columns":["Product","Price","Category"],"rows":[]},` + answerMeta + `}}`
)

var sectionKeys = []string{"market_analysis", "personas", "positioning", "messaging", "funnel", "channel_mix",
	"content_plan", "measurement", "roadmap", "experiments", "budget", "risks"}

// section is a valid strategy section of key: with the part only that section has.
func section(key string) string {
	own := map[string]string{
		"personas":    `,"personas":[{"name":"Hikers","profile":"P.","job":"When…","forces":{"push":"a","pull":"b","anxiety":"c","habit":"d"}}]`,
		"funnel":      `,"stages":[{"stage":"awareness","objective":"O.","message":"M.","channels":["Social media"]}]`,
		"measurement": `,"kpis":[{"name":"Reach","stage":"awareness","definition":"D.","target":"Baseline."}]`,
		"experiments": `,"experiments":[` + experiment + `]`,
	}[key]
	return fmt.Sprintf(`{"key":%q,"title":"Title","summary":"Summary.","points":[]%s}`, key, own)
}

func strategyBody(sections []string) string {
	return `{"success":true,"data":{"content":{"sections":[` + strings.Join(sections, ",") + `]},` +
		`"meta":{"lang":"de","grounded":true,"kb_used":6,"products":2,"tokens":2000,"depth":"strategy"}}}`
}

func strategySections() []string {
	var out []string
	for _, k := range sectionKeys {
		out = append(out, section(k))
	}
	return out
}

func TestValidateGenerators(t *testing.T) {
	v, err := NewValidator()
	if err != nil {
		t.Fatalf("NewValidator: %v", err)
	}
	strategyOK := strategyBody(strategySections())
	swapped := strategySections()
	swapped[0], swapped[2] = swapped[2], swapped[0]
	personasElsewhere := strategySections()
	personasElsewhere[2] = strings.Replace(section("personas"), `"key":"personas"`, `"key":"positioning"`, 1)
	noStages := strategySections()
	noStages[4] = `{"key":"funnel","title":"Funnel","summary":"Summary.","points":[]}`

	retry := http.Header{"Content-Type": {"application/json"}, "Retry-After": {"12"}}
	tests := []struct {
		name   string
		method string
		url    string
		status int
		header http.Header
		body   string
		want   []string
	}{
		// marketingGenerate.
		{name: "lean", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200, body: leanOK},
		{name: "full", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200, body: fullOK},
		{name: "strategy", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200, body: strategyOK},
		{name: "legacy lean", method: "POST", url: "/api.php?endpoint=chat&action=marketingGenerate", status: 200, body: leanOK},
		{name: "legacy 429", method: "POST", url: "/api.php?endpoint=chat&action=marketingGenerate", status: 429, header: retry, body: errBody("rate_limited")},
		{name: "insufficient balance is 400", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 400, body: errBody("limit_reached")},
		{name: "429 is rate_limited only", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 429, header: retry,
			body: errBody("limit_reached"), want: []string{"body /error"}},
		{name: "429 needs Retry-After", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 429, body: errBody("rate_limited"),
			want: []string{"header Retry-After: required but missing"}},
		{name: "GET is 405", method: "GET", url: "/api/v1/chat/marketingGenerate", status: 405, body: errBody("method_not_allowed")},
		{name: "content of another depth", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200,
			body: strings.Replace(leanOK, `"depth":"lean"`, `"depth":"full"`, 1), want: []string{"body /data/content"}},
		{name: "hashtag keeps its #", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200,
			body: strings.Replace(leanOK, `["Tents"]`, `["#Tents"]`, 1), want: []string{"body /data/content/hashtags/0"}},
		{name: "six variants", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200,
			body: strings.Replace(leanOK, `"Worth a look"`, `"1","2","3","4","5"`, 1), want: []string{"body /data/content/variants"}},
		{name: "empty headline", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200,
			body: strings.Replace(leanOK, `"Discover the tent"`, `""`, 1), want: []string{"body /data/content/headline"}},
		{name: "marketing meta has no total", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200,
			body: strings.Replace(leanOK, `"depth":"lean"`, `"depth":"lean","total":1`, 1), want: []string{"body /data/meta", "total"}},
		{name: "full without angles", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200,
			body: strings.Replace(fullOK, `[{"name":"Product","hook":"Hook","message":"It weighs 2.3 kg."}]`, `[]`, 1),
			want: []string{"body /data/content/angles"}},
		{name: "unknown funnel stage", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200,
			body: strings.Replace(fullOK, `"funnel_stage":"conversion"`, `"funnel_stage":"purchase"`, 1),
			want: []string{"body /data/content/funnel_stage"}},
		{name: "eleven sections", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200,
			body: strategyBody(strategySections()[:11]), want: []string{"body /data/content/sections", "minItems"}},
		{name: "sections out of order", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200,
			body: strategyBody(swapped), want: []string{"body /data/content/sections/0/key", "body /data/content/sections/2/key"}},
		{name: "personas outside their section", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200,
			body: strategyBody(personasElsewhere), want: []string{"body /data/content/sections/2"}},
		{name: "funnel without stages", method: "POST", url: "/api/v1/chat/marketingGenerate", status: 200,
			body: strategyBody(noStages), want: []string{"body /data/content/sections/4", "missing property 'stages'"}},

		// The Intelligence API.
		{name: "answer json", method: "POST", url: "/api/v1/intelligence/answer", status: 200, body: intelAnswer},
		{name: "summarize markdown", method: "POST", url: "/api/v1/intelligence/summarize", status: 200, body: intelText},
		{name: "compare table without rows", method: "POST", url: "/api/v1/intelligence/compare", status: 200, body: intelCompare},
		{name: "data faq table", method: "POST", url: "/api/v1/intelligence/data", status: 200, body: intelFAQ},
		{name: "data categories json", method: "POST", url: "/api/v1/intelligence/data", status: 200, body: intelRows},
		{name: "data without rows", method: "POST", url: "/api/v1/intelligence/data", status: 200, body: intelNoRows},
		{name: "result of another format", method: "POST", url: "/api/v1/intelligence/summarize", status: 200,
			body: strings.Replace(intelText, `"format":"markdown"`, `"format":"list"`, 1), want: []string{"body /data/result"}},
		{name: "json data of another op", method: "POST", url: "/api/v1/intelligence/extract", status: 200,
			body: strings.Replace(intelAnswer, `"op":"answer"`, `"op":"extract"`, 1), want: []string{"body /data/result/data"}},
		{name: "data op needs its total", method: "POST", url: "/api/v1/intelligence/data", status: 200,
			body: strings.Replace(intelFAQ, `,"total":1`, ``, 1), want: []string{"body /data/meta", "missing property 'total'"}},
		{name: "data op is free", method: "POST", url: "/api/v1/intelligence/data", status: 200,
			body: strings.Replace(intelFAQ, `"tokens":0`, `"tokens":5`, 1), want: []string{"body /data/meta/tokens"}},
		{name: "total for data only", method: "POST", url: "/api/v1/intelligence/answer", status: 200,
			body: strings.Replace(intelAnswer, `"depth":"lean"`, `"depth":"lean","total":1`, 1), want: []string{"body /data/meta"}},
		{name: "data table with model labels", method: "POST", url: "/api/v1/intelligence/data", status: 200,
			body: strings.Replace(intelFAQ, `["question","answer"]`, `["Question","Answer"]`, 1), want: []string{"body /data/result"}},
		{name: "data row shorter than its columns", method: "POST", url: "/api/v1/intelligence/data", status: 200,
			body: strings.Replace(intelFAQ, `["Q?","A."]`, `["Q?"]`, 1), want: []string{"body /data/result/rows/0"}},
		{name: "category count is an integer", method: "POST", url: "/api/v1/intelligence/data", status: 200,
			body: strings.Replace(intelRows, `"count":2`, `"count":"2"`, 1), want: []string{"body /data/result/data"}},
		{name: "depth strategy is marketing only", method: "POST", url: "/api/v1/intelligence/answer", status: 200,
			body: strings.Replace(intelAnswer, `"depth":"lean"`, `"depth":"strategy"`, 1), want: []string{"body /data/meta/depth"}},
		{name: "intelligence 400", method: "POST", url: "/api/v1/intelligence/answer", status: 400, body: errBody("bad_request")},
		{name: "intelligence 401", method: "POST", url: "/api/v1/intelligence/answer", status: 401, body: errBody("unauthorized")},
		{name: "intelligence 429", method: "POST", url: "/api/v1/intelligence/data", status: 429, header: retry, body: errBody("rate_limited")},
		{name: "unknown op", method: "POST", url: "/api/v1/intelligence/translate", status: 404, body: errBody("unknown_action")},
		{name: "unknown op by GET is checked first", method: "GET", url: "/api/v1/intelligence/translate", status: 404, body: errBody("unknown_action")},
		{name: "known op by GET", method: "GET", url: "/api/v1/intelligence/answer", status: 405,
			header: http.Header{"Content-Type": {"application/json"}, "Allow": {"POST"}}, body: errBody("method_not_allowed")},
		{name: "known op by HEAD", method: "HEAD", url: "/api/v1/intelligence/answer", status: 405},
		{name: "other methods never succeed", method: "DELETE", url: "/api/v1/intelligence/answer", status: 200, body: intelAnswer,
			want: []string{"[DELETE on /api/v1/intelligence/{op}] 200", "not documented for other methods", "404, 405, 500"}},
		{name: "other methods are not asked for a key", method: "GET", url: "/api/v1/intelligence/answer", status: 401,
			body: errBody("unauthorized"), want: []string{"not documented for other methods"}},
		{name: "no op is unlisted", method: "POST", url: "/api/v1/intelligence/", status: 404, body: errBody("not_found")},
		{name: "too deep is unlisted", method: "POST", url: "/api/v1/intelligence/answer/x", status: 404, body: errBody("not_found")},
		{name: "not through the legacy form", method: "POST", url: "/api.php?endpoint=intelligence&action=answer", status: 404, body: errBody("not_found")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, err := url.Parse(tc.url)
			if err != nil {
				t.Fatal(err)
			}
			h := tc.header
			if h == nil {
				h = http.Header{"Content-Type": {"application/json; charset=utf-8"}}
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
