package llm

import (
	"errors"
	"fmt"
	"strings"
)

// jsonInstruction is added to the system text when Request.JSON is set. Anthropic has no
// JSON switch on the Messages API, so the instruction is the only means; OpenAI's json_object
// mode rejects a prompt that never mentions JSON, so it is added there too when missing.
const jsonInstruction = "Reply with one JSON object only, with no text before or after it."

// validate rejects a request no provider could answer usefully, before any token is spent.
// A non-positive MaxTokens is refused rather than left to the provider's default, because it
// bounds the charge reserved for the call.
func validate(req Request) error {
	if req.MaxTokens <= 0 {
		return errors.New("request: MaxTokens must be positive")
	}
	if len(req.Messages) == 0 {
		return errors.New("request: no messages")
	}
	for i, m := range req.Messages {
		if m.Role != RoleUser && m.Role != RoleAssistant {
			return fmt.Errorf("request: message %d: unknown role %q", i, m.Role)
		}
		// Anthropic answers 400 to a blank text block; refusing it here keeps both
		// providers alike.
		if strings.TrimSpace(m.Content) == "" {
			return fmt.Errorf("request: message %d is empty", i)
		}
	}
	return nil
}

// withJSONInstruction appends the instruction to the system text.
func withJSONInstruction(system string) string {
	if strings.TrimSpace(system) == "" {
		return jsonInstruction
	}
	return strings.TrimRight(system, "\n ") + "\n\n" + jsonInstruction
}

// mentionsJSON reports whether the prompt already says "JSON" anywhere, which is what
// OpenAI's json_object mode checks.
func mentionsJSON(req Request) bool {
	if strings.Contains(strings.ToLower(req.System), "json") {
		return true
	}
	for _, m := range req.Messages {
		if strings.Contains(strings.ToLower(m.Content), "json") {
			return true
		}
	}
	return false
}
