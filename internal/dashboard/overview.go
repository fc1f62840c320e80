package dashboard

// overviewStore is what the overview pages read and change.
type overviewStore interface{}

func (s *Server) overviewRoutes(rt router) {}
