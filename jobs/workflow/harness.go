//go:build harness

package workflow

import "github.com/skipdesk/skipdesk/client/sandbox"

// SandboxServer is the embedded sandbox, nil before StartSandbox: the
// end-to-end scripts unplug it to show what the window does while the
// server is away. Only a build with the harness tag has it.
func (s *SessionService) SandboxServer() *sandbox.Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sandbox
}
