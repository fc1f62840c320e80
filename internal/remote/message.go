package remote

import "encoding/json"

// JSONErrorMessage takes the message out of the JSON error bodies providers answer:
// {"error":{"message":...}} (OpenAI and the servers that copy it), {"error":"text"} (Ollama,
// TEI, some OpenAI-compatible servers), {"message":"text"} (Cohere) and {"detail":"text"}
// (Jina and other FastAPI servers). It is "" for anything else, an HTML page included.
func JSONErrorMessage(raw []byte) string {
	var body struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(raw, &body) != nil {
		return ""
	}
	if len(body.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if s := text(body.Error); s != "" {
			return s
		}
		if json.Unmarshal(body.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
	}
	if s := text(body.Message); s != "" {
		return s
	}
	return text(body.Detail)
}

// text is raw as a JSON string, or "".
func text(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}
