package dashboard

// studioStore is what the studio pages read and change.
type studioStore interface{}

func (s *Server) studioRoutes(rt router) {}
