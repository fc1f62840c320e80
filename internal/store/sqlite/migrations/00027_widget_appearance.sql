-- +goose Up
-- The widget's appearance per embed token (issue 28): title, welcome, position, theme,
-- launcher, panel size, starters and inline mode as one JSON document ('' is the default
-- look), and the avatar image svc fetched once from the owner's https URL and serves from
-- its own origin under the hex SHA-256 of its bytes, so a visitor's browser never asks a
-- third party for it.
ALTER TABLE embed_tokens ADD COLUMN appearance TEXT NOT NULL DEFAULT '';
ALTER TABLE embed_tokens ADD COLUMN avatar_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE embed_tokens ADD COLUMN avatar_type TEXT NOT NULL DEFAULT '';
ALTER TABLE embed_tokens ADD COLUMN avatar_data BLOB;
CREATE INDEX embed_tokens_avatar ON embed_tokens (avatar_hash) WHERE avatar_hash <> '';

-- +goose Down
DROP INDEX embed_tokens_avatar;
ALTER TABLE embed_tokens DROP COLUMN avatar_data;
ALTER TABLE embed_tokens DROP COLUMN avatar_type;
ALTER TABLE embed_tokens DROP COLUMN avatar_hash;
ALTER TABLE embed_tokens DROP COLUMN appearance;
