package dashboard

// reviewStore is what the review pages read and change.
type reviewStore interface{}

func (s *Server) reviewRoutes(rt router) {}
