-- +goose Up
-- The customer dashboard: its conversation list, charts and review queue read an account with
-- 100,000 messages in a few milliseconds only if nothing has to scan the account's messages.
-- Depends on migrations 1-6 only.

-- via tells a curated answer (a curated Q&A entry served) from a reused one for cache_tenant
-- replies; '' otherwise and for every message written before this migration.
ALTER TABLE messages ADD COLUMN via TEXT NOT NULL DEFAULT '';

-- The replies of a part of a day (see daily_replies) are counted from this index alone.
CREATE INDEX messages_account_role ON messages (account_id, role, created_at, source, via, low_confidence);
-- "Had a fallback" and the fallbacks of a conversation are an index probe per conversation.
CREATE INDEX messages_conversation_source ON messages (conversation_id, source, role);

-- A conversation's newest message time, kept by SaveTurn, so the list is read newest first
-- from an index; '' while it has no message (such conversations are not listed).
ALTER TABLE conversations ADD COLUMN last_message_at TEXT NOT NULL DEFAULT '';
UPDATE conversations SET last_message_at = COALESCE(
    (SELECT MAX(m.created_at) FROM messages m WHERE m.conversation_id = conversations.id), '');
CREATE INDEX conversations_last_message ON conversations (account_id, last_message_at, id);

-- A reply's usage events (transcript costs, a conversation's cost).
CREATE INDEX usage_events_message ON usage_events (message_id);

-- Daily counts for the 30-day charts, kept by SaveTurn and every usage event in the
-- transaction that writes what they count: summing 100,000 messages' worth of rows for each
-- overview took far longer than the 50 ms a page may. Days are UTC (YYYY-MM-DD, the first ten
-- characters of a stored time). daily_replies counts assistant replies by source and via,
-- their low-confidence ones, and those with a usage event that cost something; daily_usage
-- counts usage events and their cost by type.
CREATE TABLE daily_replies (
    account_id     INTEGER NOT NULL REFERENCES accounts (id),
    day            TEXT    NOT NULL,
    source         TEXT    NOT NULL,
    via            TEXT    NOT NULL,
    replies        INTEGER NOT NULL,
    low_confidence INTEGER NOT NULL,
    charged        INTEGER NOT NULL,
    PRIMARY KEY (account_id, day, source, via)
);
INSERT INTO daily_replies (account_id, day, source, via, replies, low_confidence, charged)
SELECT m.account_id, substr(m.created_at, 1, 10), m.source, m.via, COUNT(*), SUM(m.low_confidence),
    SUM(CASE WHEN EXISTS (SELECT 1 FROM usage_events u WHERE u.message_id = m.id AND u.cost_micro > 0) THEN 1 ELSE 0 END)
FROM messages m WHERE m.role = 'assistant'
GROUP BY m.account_id, substr(m.created_at, 1, 10), m.source, m.via;

CREATE TABLE daily_usage (
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    day        TEXT    NOT NULL,
    event_type TEXT    NOT NULL,
    events     INTEGER NOT NULL,
    cost_micro INTEGER NOT NULL,
    PRIMARY KEY (account_id, day, event_type)
);
INSERT INTO daily_usage (account_id, day, event_type, events, cost_micro)
SELECT account_id, substr(created_at, 1, 10), event_type, COUNT(*), SUM(cost_micro)
FROM usage_events GROUP BY account_id, substr(created_at, 1, 10), event_type;

-- A question answered by a fallback: a review item while status is 'open' ('dismissed' or
-- 'resolved' once closed; doc_id is the curated entry that resolved it, no foreign key so the
-- entry can be deleted), and the rows Unanswered groups. question_key is the trimmed,
-- case-folded question, computed in Go (SQL lower() folds ASCII only, and the questions are
-- Turkish and German): it is NULL for questions asked before this migration until a review
-- write of the account fills it in, and readers fold those in Go.
CREATE TABLE fallback_questions (
    message_id      INTEGER PRIMARY KEY REFERENCES messages (id),
    account_id      INTEGER NOT NULL REFERENCES accounts (id),
    conversation_id INTEGER NOT NULL REFERENCES conversations (id),
    reply_id        INTEGER NOT NULL REFERENCES messages (id),
    question_key    TEXT,
    status          TEXT    NOT NULL DEFAULT 'open',
    doc_id          INTEGER,
    closed_at       TEXT    NOT NULL DEFAULT '',
    created_at      TEXT    NOT NULL
);
-- The review queue (open items, newest first); ResolveFallback's siblings and the questions
-- without a key; Unanswered's window.
CREATE INDEX fallback_questions_status ON fallback_questions (account_id, status, created_at);
CREATE INDEX fallback_questions_key ON fallback_questions (account_id, question_key, created_at);
CREATE INDEX fallback_questions_created ON fallback_questions (account_id, created_at, question_key);

-- Earlier fallbacks become open items: the question is the user message just before each
-- fallback reply (as ReviewList finds the question of a rated reply); should two replies
-- follow one question, its first reply is kept.
INSERT INTO fallback_questions (message_id, account_id, conversation_id, reply_id, created_at)
SELECT q.id, q.account_id, q.conversation_id, MIN(r.id), q.created_at
FROM messages r
JOIN messages q ON q.id = (SELECT MAX(p.id) FROM messages p
    WHERE p.conversation_id = r.conversation_id AND p.id < r.id AND p.role = 'user')
WHERE r.role = 'assistant' AND r.source = 'fallback'
GROUP BY q.id, q.account_id, q.conversation_id, q.created_at;

-- feedback.resolved: 0 open, 1 answered (ResolveReview), 2 dismissed (DismissReview). Both
-- closed states read as resolved in ReviewList.

-- The knowledge-base browser lists an account's documents newest first.
CREATE INDEX documents_updated ON documents (account_id, updated_at, id);

-- +goose Down
DROP INDEX documents_updated;
UPDATE feedback SET resolved = 1 WHERE resolved = 2;
DROP TABLE fallback_questions;
DROP TABLE daily_usage;
DROP TABLE daily_replies;
DROP INDEX usage_events_message;
DROP INDEX conversations_last_message;
ALTER TABLE conversations DROP COLUMN last_message_at;
DROP INDEX messages_conversation_source;
DROP INDEX messages_account_role;
ALTER TABLE messages DROP COLUMN via;
