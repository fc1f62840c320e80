package extract

import (
	"encoding/json"
	"testing"
)

// canon re-encodes decoded values so a test can compare them as text.
func canon(t *testing.T, vals []any) string {
	t.Helper()
	b, err := json.Marshal(vals)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

func TestDecodeLenient(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"valid", `{"a":1}`, `[{"a":1}]`},
		{"top-level array", `[{"a":1},{"b":2}]`, `[[{"a":1},{"b":2}]]`},
		{"raw newline and tab in string", "{\"d\":\"line one\nline\ttwo\"}", `[{"d":"line one\nline\ttwo"}]`},
		{"raw CRLF", "{\"d\":\"a\r\nb\"}", `[{"d":"a\r\nb"}]`},
		{"trailing commas", `{"a":[1,2,],"b":{"c":3,},}`, `[{"a":[1,2],"b":{"c":3}}]`},
		{"stray closing brace at end", `{"a":{"b":1}}}`, `[{"a":{"b":1}}]`},
		{"stray brace closes early", `{"offers":{"price":"1"}},"name":"X"}`, `[{"name":"X","offers":{"price":"1"}}]`},
		{"missing final brace", `{"a":{"b":1}`, `[{"a":{"b":1}}]`},
		{"missing brace and bracket", `{"a":[{"b":1}`, `[{"a":[{"b":1}]}]`},
		{"mismatched closer", `{"a":[1,2}`, `[{"a":[1,2]}]`},
		{"html comment", `<!-- {"a":1} -->`, `[{"a":1}]`},
		{"cdata", `//<![CDATA[
{"a":1}
//]]>`, `[{"a":1}]`},
		{"bare cdata", `<![CDATA[{"a":1}]]>`, `[{"a":1}]`},
		{"entities", `{&quot;name&quot;:&quot;Çay &amp; Kahve&quot;}`, `[{"name":"Çay \u0026 Kahve"}]`},
		{"entity inside valid json stays", `{"name":"15&quot; Monitor"}`, `[{"name":"15\u0026quot; Monitor"}]`},
		{"concatenated objects", `{"a":1}{"b":2}`, `[{"a":1},{"b":2}]`},
		{"concatenated with newline and comma", "{\"a\":1},\n{\"b\":2}", `[{"a":1},{"b":2}]`},
		{"bom", "\ufeff{\"a\":1}", `[{"a":1}]`},
		{"bom after space", " \ufeff {\"a\":1}", `[{"a":1}]`},
		{"unescaped quote in string", `{"name":"24" Monitor","b":1}`, `[{"b":1,"name":"24\" Monitor"}]`},
		{"invalid escape", `{"a":"it\'s \x"}`, `[{"a":"it's \\x"}]`},
		{"missing comma between members", "{\"a\":\"x\"\n\"b\":2}", `[{"a":"x","b":2}]`},
		{"comments", "{\"a\":1, // note\n\"b\":/* c */2}", `[{"a":1,"b":2}]`},
		{"trailing semicolon", `{"a":1};`, `[{"a":1}]`},
		{"unterminated string", `{"a":"b`, `[{"a":"b"}]`},
		{"dangling key", `{"a":1,"b":`, `[{"a":1,"b":null}]`},
		{"url slashes are not comments", `{"u":"https://x.test/a"}`, `[{"u":"https://x.test/a"}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := canon(t, decodeLenient(tc.in)); got != tc.want {
				t.Errorf("decodeLenient(%q)\n got %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestDecodeLenientGivesUp(t *testing.T) {
	for _, in := range []string{"", "   ", "not json", "<p>hello</p>", `{"a" "b" "c"}`, `{{{{`} {
		for _, v := range decodeLenient(in) {
			if _, ok := v.(map[string]any); ok && in != `{{{{` {
				t.Errorf("decodeLenient(%q) invented an object: %v", in, v)
			}
		}
	}
}

func TestRepairIdempotentOnValid(t *testing.T) {
	for _, in := range []string{`{"a":[1,2,{"b":"c\"d"}],"e":null,"f":true}`, `[]`, `"x"`} {
		if got := repairJSON(in); got != in {
			t.Errorf("repairJSON(%q) = %q, want it unchanged", in, got)
		}
	}
}
