-- +goose Up
-- Every send writes a question, a reply and a usage event, and every index on them is one
-- more B-tree insert and one more page for the commit to write. These three are read only
-- for some of those rows, so they index only those:
-- the dashboard's reply counts read replies (role 'assistant'), never questions;
DROP INDEX messages_account_role;
CREATE INDEX messages_account_replies ON messages (account_id, created_at, source, via, low_confidence)
    WHERE role = 'assistant';
-- the conversation list's "has a fallback" filter and count read fallback replies only;
DROP INDEX messages_conversation_source;
CREATE INDEX messages_conversation_fallbacks ON messages (conversation_id)
    WHERE source = 'fallback' AND role = 'assistant';
-- a token's spend reads widget events only (an API send has no token).
DROP INDEX usage_events_token;
CREATE INDEX usage_events_token ON usage_events (embed_token_id, created_at) WHERE embed_token_id IS NOT NULL;

-- +goose Down
DROP INDEX usage_events_token;
CREATE INDEX usage_events_token ON usage_events (embed_token_id, created_at);
DROP INDEX messages_conversation_fallbacks;
CREATE INDEX messages_conversation_source ON messages (conversation_id, source, role);
DROP INDEX messages_account_replies;
CREATE INDEX messages_account_role ON messages (account_id, role, created_at, source, via, low_confidence);
