// Package sqlstore is the code the SQLite and PostgreSQL stores share: the pool and
// transaction types both run their SQL through, the time and error helpers, and every store
// method whose SQL and rules are the same on both databases. Business rules (quota, holds,
// budgets, notices, token limits, the outbox lease) live here once; store/sqlite and
// store/postgres keep only what truly differs (opening, migrations, full-text search, the
// write path's concurrency) and plug it in through Dialect. See ARCHITECTURE.md, "Storage".
package sqlstore
