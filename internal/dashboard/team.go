package dashboard

// teamStore is what the team pages read and change.
type teamStore interface{}

func (s *Server) teamRoutes(rt router) {}
