package dashboard

// kbStore is what the kb pages read and change.
type kbStore interface{}

func (s *Server) kbRoutes(rt router) {}

// crawlJobs tracks the crawls started from the dashboard.
type crawlJobs struct{}

func newCrawlJobs() *crawlJobs { return &crawlJobs{} }
