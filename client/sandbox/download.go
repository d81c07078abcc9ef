package sandbox

import (
	"fmt"
	"net/http"
	"os"
	"strings"
)

func (s *Server) downloadHandler(kind string) func(http.ResponseWriter, *http.Request, *account, string) {
	return func(w http.ResponseWriter, r *http.Request, a *account, id string) {
		s.mu.Lock()
		j := s.lookup(kind, a, id)
		var status, path, name string
		var cut int64
		if j != nil {
			status, path, name = j.status, j.resultPath, j.name
			if n := s.cfg.Faults.ResetDownloadsAfterBytes; n > 0 && !j.cutDone && status == statusCompleted && r.Method == http.MethodGet {
				j.cutDone = true
				cut = n
			}
		}
		s.mu.Unlock()
		switch {
		case j == nil:
			writeAPIError(w, notFound(kind, id))
			return
		case status == statusProcessing:
			writePlain(w, http.StatusConflict, "the result is not ready: the job is still processing", "JOB_NOT_COMPLETED")
			return
		case status == statusFailed:
			writePlain(w, http.StatusConflict, "the job failed and has no result file", "JOB_FAILED")
			return
		}
		f, err := os.Open(path)
		if err != nil {
			s.logger.Printf("sandbox: result of %s: %v", id, err)
			writePlain(w, http.StatusInternalServerError, "the result file is not available", "INTERNAL_ERROR")
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			writePlain(w, http.StatusInternalServerError, "the result file is not available", "INTERNAL_ERROR")
			return
		}
		base := strings.TrimSuffix(name, ".csv")
		base = strings.Map(func(r rune) rune {
			if r == '"' || r == '\\' || r < 0x20 || r > 0x7e {
				return '_'
			}
			return r
		}, base)
		h := w.Header()
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-results.csv"`, base))
		h.Set("ETag", fmt.Sprintf(`"%s-%d"`, j.encodedID, st.Size()))
		var out http.ResponseWriter = w
		if cut > 0 {
			out = &cutWriter{ResponseWriter: w, left: cut}
		}
		http.ServeContent(out, r, "", st.ModTime(), f)
	}
}

// cutWriter aborts the connection once left bytes of body are written
// (faults.reset_downloads_after_bytes).
type cutWriter struct {
	http.ResponseWriter
	left int64
}

func (c *cutWriter) Write(p []byte) (int, error) {
	if int64(len(p)) < c.left {
		c.left -= int64(len(p))
		return c.ResponseWriter.Write(p)
	}
	c.ResponseWriter.Write(p[:c.left])
	http.NewResponseController(c.ResponseWriter).Flush()
	panic(http.ErrAbortHandler)
}

func (c *cutWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
