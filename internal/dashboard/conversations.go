package dashboard

// conversationsStore is what the conversations pages read and change.
type conversationsStore interface{}

func (s *Server) conversationRoutes(rt router) {}
