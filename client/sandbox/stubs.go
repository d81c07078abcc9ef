package sandbox

import "net/http"

func notYet(w http.ResponseWriter, r *http.Request, a *account, id string) {
	writePlain(w, http.StatusNotImplemented, "not implemented yet", "NOT_IMPLEMENTED")
}

func (s *Server) createHandler(kind string) func(http.ResponseWriter, *http.Request, *account, string) {
	return notYet
}
func (s *Server) handleSingle(w http.ResponseWriter, r *http.Request, a *account, id string) {
	notYet(w, r, a, id)
}
func (s *Server) downloadHandler(kind string) func(http.ResponseWriter, *http.Request, *account, string) {
	return notYet
}
func (s *Server) retryWebhookHandler(kind string) func(http.ResponseWriter, *http.Request, *account, string) {
	return notYet
}

type Delivery struct{}
