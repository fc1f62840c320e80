package postgres

import (
	"context"
	"iter"
	"time"

	"svc/internal/store"
)

// CreateAccount is not written yet (Accounts).
func (s *Store) CreateAccount(ctx context.Context, a *store.Account, key *store.APIKey) error {
	return errNotYet("CreateAccount")
}

// GetAccount is not written yet (Accounts).
func (s *Store) GetAccount(ctx context.Context, accountID int64) (store.Account, error) {
	var r0 store.Account
	return r0, errNotYet("GetAccount")
}

// FindAccountByName is not written yet (Accounts).
func (s *Store) FindAccountByName(ctx context.Context, name string) (store.Account, error) {
	var r0 store.Account
	return r0, errNotYet("FindAccountByName")
}

// UpdateAccount is not written yet (Accounts).
func (s *Store) UpdateAccount(ctx context.Context, a *store.Account) error {
	return errNotYet("UpdateAccount")
}

// AddBalance is not written yet (Accounts).
func (s *Store) AddBalance(ctx context.Context, accountID int64, amountMicro int64, note string) (int64, error) {
	var r0 int64
	return r0, errNotYet("AddBalance")
}

// Ledger is not written yet (Accounts).
func (s *Store) Ledger(ctx context.Context, accountID int64) ([]store.LedgerEntry, error) {
	var r0 []store.LedgerEntry
	return r0, errNotYet("Ledger")
}

// ActiveKeysByPrefix is not written yet (Keys).
func (s *Store) ActiveKeysByPrefix(ctx context.Context, prefix string) ([]store.APIKey, error) {
	var r0 []store.APIKey
	return r0, errNotYet("ActiveKeysByPrefix")
}

// ActiveKeyAccounts is not written yet (Keys).
func (s *Store) ActiveKeyAccounts(ctx context.Context, prefix string) ([]store.KeyAccount, error) {
	var r0 []store.KeyAccount
	return r0, errNotYet("ActiveKeyAccounts")
}

// RotateKey is not written yet (Keys).
func (s *Store) RotateKey(ctx context.Context, accountID int64, key *store.APIKey) error {
	return errNotYet("RotateKey")
}

// GetKey is not written yet (Keys).
func (s *Store) GetKey(ctx context.Context, accountID, keyID int64) (store.APIKey, error) {
	var r0 store.APIKey
	return r0, errNotYet("GetKey")
}

// TouchKey is not written yet (Keys).
func (s *Store) TouchKey(ctx context.Context, keyID int64, at time.Time) error {
	return errNotYet("TouchKey")
}

// OpenConversation is not written yet (Conversations).
func (s *Store) OpenConversation(ctx context.Context, accountID int64, lang string) (store.Conversation, error) {
	var r0 store.Conversation
	return r0, errNotYet("OpenConversation")
}

// Messages is not written yet (Conversations).
func (s *Store) Messages(ctx context.Context, accountID, conversationID, sinceID int64, limit int) ([]store.Message, error) {
	var r0 []store.Message
	return r0, errNotYet("Messages")
}

// LastMessages is not written yet (Conversations).
func (s *Store) LastMessages(ctx context.Context, accountID, conversationID int64, limit int) ([]store.Message, error) {
	var r0 []store.Message
	return r0, errNotYet("LastMessages")
}

// SaveTurn is not written yet (Conversations).
func (s *Store) SaveTurn(ctx context.Context, t *store.Turn) error {
	return errNotYet("SaveTurn")
}

// CachedAnswer is not written yet (Conversations).
func (s *Store) CachedAnswer(ctx context.Context, accountID int64, lang, key string) (store.CacheEntry, error) {
	var r0 store.CacheEntry
	return r0, errNotYet("CachedAnswer")
}

// SimilarCached is not written yet (Conversations).
func (s *Store) SimilarCached(ctx context.Context, accountID int64, lang string, terms []string, limit int) ([]store.CacheEntry, error) {
	var r0 []store.CacheEntry
	return r0, errNotYet("SimilarCached")
}

// CountEvents is not written yet (Conversations).
func (s *Store) CountEvents(ctx context.Context, accountID int64, eventType string, since time.Time) (int, error) {
	var r0 int
	return r0, errNotYet("CountEvents")
}

// SaveFeedback is not written yet (Conversations).
func (s *Store) SaveFeedback(ctx context.Context, f *store.Feedback) error {
	return errNotYet("SaveFeedback")
}

// ReviewList is not written yet (Conversations).
func (s *Store) ReviewList(ctx context.Context, accountID int64) ([]store.ReviewItem, error) {
	var r0 []store.ReviewItem
	return r0, errNotYet("ReviewList")
}

// ResolveReview is not written yet (Conversations).
func (s *Store) ResolveReview(ctx context.Context, accountID, feedbackID int64, doc *store.Document) error {
	return errNotYet("ResolveReview")
}

// TopQuestions is not written yet (Conversations).
func (s *Store) TopQuestions(ctx context.Context, accountID int64, lang string, limit int) ([]string, error) {
	var r0 []string
	return r0, errNotYet("TopQuestions")
}

// ImportDocuments is not written yet (KB).
func (s *Store) ImportDocuments(ctx context.Context, accountID int64, docs []store.Document) (store.ImportResult, error) {
	var r0 store.ImportResult
	return r0, errNotYet("ImportDocuments")
}

// ImportDocumentSeq is not written yet (KB).
func (s *Store) ImportDocumentSeq(ctx context.Context, accountID int64, docs iter.Seq2[store.Document, error]) (store.ImportResult, error) {
	var r0 store.ImportResult
	return r0, errNotYet("ImportDocumentSeq")
}

// SearchChunks is not written yet (KB).
func (s *Store) SearchChunks(ctx context.Context, accountID int64, q store.SearchQuery) ([]store.ChunkHit, error) {
	var r0 []store.ChunkHit
	return r0, errNotYet("SearchChunks")
}

// TermStats is not written yet (KB).
func (s *Store) TermStats(ctx context.Context, accountID int64, terms []store.SearchTerm) (store.TermStats, error) {
	var r0 store.TermStats
	return r0, errNotYet("TermStats")
}

// ChunkCounts is not written yet (KB).
func (s *Store) ChunkCounts(ctx context.Context, accountID int64) (map[string]int, error) {
	var r0 map[string]int
	return r0, errNotYet("ChunkCounts")
}

// GetDocument is not written yet (KB).
func (s *Store) GetDocument(ctx context.Context, accountID, docID int64) (store.Document, error) {
	var r0 store.Document
	return r0, errNotYet("GetDocument")
}

// QAQuestions is not written yet (KB).
func (s *Store) QAQuestions(ctx context.Context, accountID int64, lang string, limit int) ([]string, error) {
	var r0 []string
	return r0, errNotYet("QAQuestions")
}

// Products is not written yet (KB).
func (s *Store) Products(ctx context.Context, accountID int64, q store.ProductQuery) ([]store.ChunkHit, error) {
	var r0 []store.ChunkHit
	return r0, errNotYet("Products")
}

// Articles is not written yet (KB).
func (s *Store) Articles(ctx context.Context, accountID int64, lang string, limit int) ([]store.Article, error) {
	var r0 []store.Article
	return r0, errNotYet("Articles")
}

// CountDocuments is not written yet (KB).
func (s *Store) CountDocuments(ctx context.Context, accountID int64) (map[string]int, error) {
	var r0 map[string]int
	return r0, errNotYet("CountDocuments")
}

// CatalogProducts is not written yet (KB).
func (s *Store) CatalogProducts(ctx context.Context, accountID int64, q store.CatalogQuery) ([]store.CatalogProduct, int, error) {
	var r0 []store.CatalogProduct
	var r1 int
	return r0, r1, errNotYet("CatalogProducts")
}

// CatalogFAQ is not written yet (KB).
func (s *Store) CatalogFAQ(ctx context.Context, accountID int64, q store.CatalogQuery) ([]store.CatalogFAQ, int, error) {
	var r0 []store.CatalogFAQ
	var r1 int
	return r0, r1, errNotYet("CatalogFAQ")
}

// CatalogCategories is not written yet (KB).
func (s *Store) CatalogCategories(ctx context.Context, accountID, siteID int64, lang string) ([]store.CatalogCategory, error) {
	var r0 []store.CatalogCategory
	return r0, errNotYet("CatalogCategories")
}

// CreateEmbedToken is not written yet (EmbedTokens).
func (s *Store) CreateEmbedToken(ctx context.Context, t *store.EmbedToken, maxActive int) error {
	return errNotYet("CreateEmbedToken")
}

// EmbedTokens is not written yet (EmbedTokens).
func (s *Store) EmbedTokens(ctx context.Context, accountID int64) ([]store.EmbedToken, error) {
	var r0 []store.EmbedToken
	return r0, errNotYet("EmbedTokens")
}

// GetEmbedToken is not written yet (EmbedTokens).
func (s *Store) GetEmbedToken(ctx context.Context, accountID, tokenID int64) (store.EmbedToken, error) {
	var r0 store.EmbedToken
	return r0, errNotYet("GetEmbedToken")
}

// UpdateEmbedToken is not written yet (EmbedTokens).
func (s *Store) UpdateEmbedToken(ctx context.Context, t *store.EmbedToken) error {
	return errNotYet("UpdateEmbedToken")
}

// RevokeEmbedToken is not written yet (EmbedTokens).
func (s *Store) RevokeEmbedToken(ctx context.Context, accountID, tokenID int64) error {
	return errNotYet("RevokeEmbedToken")
}

// ActiveEmbedTokensByPrefix is not written yet (EmbedTokens).
func (s *Store) ActiveEmbedTokensByPrefix(ctx context.Context, prefix string) ([]store.EmbedToken, error) {
	var r0 []store.EmbedToken
	return r0, errNotYet("ActiveEmbedTokensByPrefix")
}

// ActiveEmbedDomains is not written yet (EmbedTokens).
func (s *Store) ActiveEmbedDomains(ctx context.Context) ([]string, error) {
	var r0 []string
	return r0, errNotYet("ActiveEmbedDomains")
}

// TouchEmbedToken is not written yet (EmbedTokens).
func (s *Store) TouchEmbedToken(ctx context.Context, tokenID int64, at time.Time) error {
	return errNotYet("TouchEmbedToken")
}

// EmbedUsage is not written yet (EmbedTokens).
func (s *Store) EmbedUsage(ctx context.Context, accountID int64, since time.Time) (map[int64]store.EmbedUsage, error) {
	var r0 map[int64]store.EmbedUsage
	return r0, errNotYet("EmbedUsage")
}

// EmbedSpend is not written yet (EmbedTokens).
func (s *Store) EmbedSpend(ctx context.Context, accountID, tokenID int64, since time.Time) (int64, error) {
	var r0 int64
	return r0, errNotYet("EmbedSpend")
}

// OpenVisitorConversation is not written yet (EmbedTokens).
func (s *Store) OpenVisitorConversation(ctx context.Context, accountID, tokenID int64, visitor, lang string) (store.Conversation, error) {
	var r0 store.Conversation
	return r0, errNotYet("OpenVisitorConversation")
}

// CountUserMessages is not written yet (EmbedTokens).
func (s *Store) CountUserMessages(ctx context.Context, accountID, conversationID int64, since time.Time) (int, error) {
	var r0 int
	return r0, errNotYet("CountUserMessages")
}

// EnqueueNotice is not written yet (Outbox).
func (s *Store) EnqueueNotice(ctx context.Context, n *store.Notice) (bool, error) {
	var r0 bool
	return r0, errNotYet("EnqueueNotice")
}

// ClaimNotices is not written yet (Outbox).
func (s *Store) ClaimNotices(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]store.Notice, error) {
	var r0 []store.Notice
	return r0, errNotYet("ClaimNotices")
}

// NoticeSent is not written yet (Outbox).
func (s *Store) NoticeSent(ctx context.Context, noticeID int64, at time.Time, clearPayload bool) error {
	return errNotYet("NoticeSent")
}

// NoticeFailed is not written yet (Outbox).
func (s *Store) NoticeFailed(ctx context.Context, noticeID int64, errText string, next time.Time, final bool) error {
	return errNotYet("NoticeFailed")
}

// Notices is not written yet (Outbox).
func (s *Store) Notices(ctx context.Context, accountID int64) ([]store.Notice, error) {
	var r0 []store.Notice
	return r0, errNotYet("Notices")
}

// UsageSummary is not written yet (Billing).
func (s *Store) UsageSummary(ctx context.Context, accountID int64, since time.Time, recent int) (store.UsageSummary, error) {
	var r0 store.UsageSummary
	return r0, errNotYet("UsageSummary")
}

// AverageCost is not written yet (Billing).
func (s *Store) AverageCost(ctx context.Context, accountID int64, n int) (int64, bool, error) {
	var r0 int64
	var r1 bool
	return r0, r1, errNotYet("AverageCost")
}

// Reserve is not written yet (Billing).
func (s *Store) Reserve(ctx context.Context, accountID, amountMicro int64, ttl time.Duration, budget *store.TokenBudget) (store.Reservation, error) {
	var r0 store.Reservation
	return r0, errNotYet("Reserve")
}

// Release is not written yet (Billing).
func (s *Store) Release(ctx context.Context, accountID, reservationID int64) error {
	return errNotYet("Release")
}

// ReleaseReservations is not written yet (Billing).
func (s *Store) ReleaseReservations(ctx context.Context, expiredBy, createdBefore time.Time) (store.ReleasedReservations, error) {
	var r0 store.ReleasedReservations
	return r0, errNotYet("ReleaseReservations")
}

// UsageCalls is not written yet (Billing).
func (s *Store) UsageCalls(ctx context.Context, accountID, eventID int64) ([]store.CallUsage, error) {
	var r0 []store.CallUsage
	return r0, errNotYet("UsageCalls")
}

// ChargeUsage is not written yet (Billing).
func (s *Store) ChargeUsage(ctx context.Context, accountID int64, c *store.Charge, reservationID int64) (int64, error) {
	var r0 int64
	return r0, errNotYet("ChargeUsage")
}

// ListConversations is not written yet (Dashboard).
func (s *Store) ListConversations(ctx context.Context, accountID int64, f store.ConversationFilter) ([]store.ConversationRow, error) {
	var r0 []store.ConversationRow
	return r0, errNotYet("ListConversations")
}

// GetConversation is not written yet (Dashboard).
func (s *Store) GetConversation(ctx context.Context, accountID, conversationID int64) (store.Conversation, error) {
	var r0 store.Conversation
	return r0, errNotYet("GetConversation")
}

// Transcript is not written yet (Dashboard).
func (s *Store) Transcript(ctx context.Context, accountID, conversationID, beforeID int64, limit int) ([]store.TranscriptMessage, error) {
	var r0 []store.TranscriptMessage
	return r0, errNotYet("Transcript")
}

// DailyUsage is not written yet (Dashboard).
func (s *Store) DailyUsage(ctx context.Context, accountID int64, since time.Time) ([]store.DayUsage, error) {
	var r0 []store.DayUsage
	return r0, errNotYet("DailyUsage")
}

// DailySources is not written yet (Dashboard).
func (s *Store) DailySources(ctx context.Context, accountID int64, since time.Time) ([]store.DaySource, error) {
	var r0 []store.DaySource
	return r0, errNotYet("DailySources")
}

// ReplyStats is not written yet (Dashboard).
func (s *Store) ReplyStats(ctx context.Context, accountID int64, since time.Time) (store.ReplyStats, error) {
	var r0 store.ReplyStats
	return r0, errNotYet("ReplyStats")
}

// Unanswered is not written yet (Dashboard).
func (s *Store) Unanswered(ctx context.Context, accountID int64, since time.Time, limit int) ([]store.UnansweredQuestion, error) {
	var r0 []store.UnansweredQuestion
	return r0, errNotYet("Unanswered")
}

// ReviewQueue is not written yet (Dashboard).
func (s *Store) ReviewQueue(ctx context.Context, accountID int64, kind string, offset, limit int) ([]store.ReviewQueueItem, int, error) {
	var r0 []store.ReviewQueueItem
	var r1 int
	return r0, r1, errNotYet("ReviewQueue")
}

// ReviewItem is not written yet (Dashboard).
func (s *Store) ReviewItem(ctx context.Context, accountID int64, kind string, id int64) (store.ReviewQueueItem, error) {
	var r0 store.ReviewQueueItem
	return r0, errNotYet("ReviewItem")
}

// DismissReview is not written yet (Dashboard).
func (s *Store) DismissReview(ctx context.Context, accountID int64, kind string, id int64) error {
	return errNotYet("DismissReview")
}

// ResolveFallback is not written yet (Dashboard).
func (s *Store) ResolveFallback(ctx context.Context, accountID, messageID int64, doc *store.Document) error {
	return errNotYet("ResolveFallback")
}

// ListDocuments is not written yet (Dashboard).
func (s *Store) ListDocuments(ctx context.Context, accountID int64, q store.DocQuery) ([]store.DocumentRow, int, error) {
	var r0 []store.DocumentRow
	var r1 int
	return r0, r1, errNotYet("ListDocuments")
}

// DeleteDocument is not written yet (Dashboard).
func (s *Store) DeleteDocument(ctx context.Context, accountID, docID int64) error {
	return errNotYet("DeleteDocument")
}

// ReplaceDocument is not written yet (Dashboard).
func (s *Store) ReplaceDocument(ctx context.Context, accountID, oldID int64, doc *store.Document) error {
	return errNotYet("ReplaceDocument")
}

// LedgerPage is not written yet (Dashboard).
func (s *Store) LedgerPage(ctx context.Context, accountID, beforeID int64, limit int) ([]store.LedgerEntry, int, error) {
	var r0 []store.LedgerEntry
	var r1 int
	return r0, r1, errNotYet("LedgerPage")
}

// ActiveKey is not written yet (Dashboard).
func (s *Store) ActiveKey(ctx context.Context, accountID int64) (store.APIKey, error) {
	var r0 store.APIKey
	return r0, errNotYet("ActiveKey")
}

// CreateSite is not written yet (Sites).
func (s *Store) CreateSite(ctx context.Context, site *store.Site) error {
	return errNotYet("CreateSite")
}

// GetSite is not written yet (Sites).
func (s *Store) GetSite(ctx context.Context, accountID, siteID int64) (store.Site, error) {
	var r0 store.Site
	return r0, errNotYet("GetSite")
}

// ListSites is not written yet (Sites).
func (s *Store) ListSites(ctx context.Context, accountID int64) ([]store.Site, error) {
	var r0 []store.Site
	return r0, errNotYet("ListSites")
}

// DueSites is not written yet (Sites).
func (s *Store) DueSites(ctx context.Context, finishedBefore time.Time, limit int) ([]store.Site, error) {
	var r0 []store.Site
	return r0, errNotYet("DueSites")
}

// ClaimSite is not written yet (Sites).
func (s *Store) ClaimSite(ctx context.Context, accountID, siteID int64, until time.Time) (bool, error) {
	var r0 bool
	return r0, errNotYet("ClaimSite")
}

// ReleaseSite is not written yet (Sites).
func (s *Store) ReleaseSite(ctx context.Context, accountID, siteID int64, finishedAt time.Time, summary string) error {
	return errNotYet("ReleaseSite")
}

// PageStates is not written yet (Crawls).
func (s *Store) PageStates(ctx context.Context, accountID, siteID int64) (map[string]store.PageState, error) {
	var r0 map[string]store.PageState
	return r0, errNotYet("PageStates")
}

// SavePage is not written yet (Crawls).
func (s *Store) SavePage(ctx context.Context, accountID, siteID int64, p store.PageState, docs []store.Document) (store.ImportResult, error) {
	var r0 store.ImportResult
	return r0, errNotYet("SavePage")
}

// TouchPage is not written yet (Crawls).
func (s *Store) TouchPage(ctx context.Context, accountID, siteID int64, p store.PageState) error {
	return errNotYet("TouchPage")
}

// RemovePages is not written yet (Crawls).
func (s *Store) RemovePages(ctx context.Context, accountID, siteID int64, urls []string) (int, error) {
	var r0 int
	return r0, errNotYet("RemovePages")
}

// SiteDocuments is not written yet (Crawls).
func (s *Store) SiteDocuments(ctx context.Context, accountID, siteID int64) (map[string]int, error) {
	var r0 map[string]int
	return r0, errNotYet("SiteDocuments")
}

// CreateUser is not written yet (Users).
func (s *Store) CreateUser(ctx context.Context, u *store.User) error {
	return errNotYet("CreateUser")
}

// GetUser is not written yet (Users).
func (s *Store) GetUser(ctx context.Context, accountID, userID int64) (store.User, error) {
	var r0 store.User
	return r0, errNotYet("GetUser")
}

// UserByEmail is not written yet (Users).
func (s *Store) UserByEmail(ctx context.Context, email string) (store.User, error) {
	var r0 store.User
	return r0, errNotYet("UserByEmail")
}

// ListUsers is not written yet (Users).
func (s *Store) ListUsers(ctx context.Context, accountID int64) ([]store.User, error) {
	var r0 []store.User
	return r0, errNotYet("ListUsers")
}

// UpdateUser is not written yet (Users).
func (s *Store) UpdateUser(ctx context.Context, u *store.User) error {
	return errNotYet("UpdateUser")
}

// RemoveUser is not written yet (Users).
func (s *Store) RemoveUser(ctx context.Context, accountID, userID int64) error {
	return errNotYet("RemoveUser")
}

// SetPassword is not written yet (Users).
func (s *Store) SetPassword(ctx context.Context, accountID, userID int64, hash string, at time.Time, keepSessionID int64) error {
	return errNotYet("SetPassword")
}

// RecordSignIn is not written yet (Users).
func (s *Store) RecordSignIn(ctx context.Context, accountID, userID int64, at time.Time) error {
	return errNotYet("RecordSignIn")
}

// CreateSession is not written yet (Users).
func (s *Store) CreateSession(ctx context.Context, sess *store.Session) error {
	return errNotYet("CreateSession")
}

// SessionByHash is not written yet (Users).
func (s *Store) SessionByHash(ctx context.Context, hash []byte) (store.Session, error) {
	var r0 store.Session
	return r0, errNotYet("SessionByHash")
}

// TouchSession is not written yet (Users).
func (s *Store) TouchSession(ctx context.Context, sessionID int64, at time.Time) error {
	return errNotYet("TouchSession")
}

// DeleteSession is not written yet (Users).
func (s *Store) DeleteSession(ctx context.Context, sessionID int64) error {
	return errNotYet("DeleteSession")
}

// DeleteUserSessions is not written yet (Users).
func (s *Store) DeleteUserSessions(ctx context.Context, accountID, userID int64) error {
	return errNotYet("DeleteUserSessions")
}

// DeleteStaleSessions is not written yet (Users).
func (s *Store) DeleteStaleSessions(ctx context.Context, idleBefore, now time.Time) (int, error) {
	var r0 int
	return r0, errNotYet("DeleteStaleSessions")
}

// CreateAuthToken is not written yet (Users).
func (s *Store) CreateAuthToken(ctx context.Context, t *store.AuthToken) error {
	return errNotYet("CreateAuthToken")
}

// AuthTokenByHash is not written yet (Users).
func (s *Store) AuthTokenByHash(ctx context.Context, hash []byte) (store.AuthToken, error) {
	var r0 store.AuthToken
	return r0, errNotYet("AuthTokenByHash")
}

// RedeemAuthToken is not written yet (Users).
func (s *Store) RedeemAuthToken(ctx context.Context, hash []byte, now time.Time, passwordHash string) (store.User, error) {
	var r0 store.User
	return r0, errNotYet("RedeemAuthToken")
}

// DeleteStaleVisitorConversations is not written yet (Privacy).
func (s *Store) DeleteStaleVisitorConversations(ctx context.Context, before time.Time, limit int) (store.VisitorDeletion, error) {
	var r0 store.VisitorDeletion
	return r0, errNotYet("DeleteStaleVisitorConversations")
}

// VisitorData is not written yet (Privacy).
func (s *Store) VisitorData(ctx context.Context, accountID int64, visitor string) (store.VisitorData, error) {
	var r0 store.VisitorData
	return r0, errNotYet("VisitorData")
}

// DeleteVisitor is not written yet (Privacy).
func (s *Store) DeleteVisitor(ctx context.Context, accountID int64, visitor string) (store.VisitorDeletion, error) {
	var r0 store.VisitorDeletion
	return r0, errNotYet("DeleteVisitor")
}

// DeleteAccount is not written yet (Privacy).
func (s *Store) DeleteAccount(ctx context.Context, accountID int64) (store.AccountDeletion, error) {
	var r0 store.AccountDeletion
	return r0, errNotYet("DeleteAccount")
}

// DeletedAccount is not written yet (Privacy).
func (s *Store) DeletedAccount(ctx context.Context, accountID int64) (store.DeletedAccount, error) {
	var r0 store.DeletedAccount
	return r0, errNotYet("DeletedAccount")
}

// ArchivedLedger is not written yet (Privacy).
func (s *Store) ArchivedLedger(ctx context.Context, accountID int64) ([]store.LedgerEntry, error) {
	var r0 []store.LedgerEntry
	return r0, errNotYet("ArchivedLedger")
}

// CheckLedger is not written yet (LedgerChecker).
func (s *Store) CheckLedger(ctx context.Context, accountID int64, now time.Time) (store.LedgerReport, error) {
	var r0 store.LedgerReport
	return r0, errNotYet("CheckLedger")
}

// OpsStats is not written yet (Monitoring).
func (s *Store) OpsStats(ctx context.Context, now time.Time) (store.OpsStats, error) {
	var r0 store.OpsStats
	return r0, errNotYet("OpsStats")
}
