package sandbox

import (
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
)

func (s *Server) handleCreateDNC(w http.ResponseWriter, r *http.Request, a *account, _ string) {
	up, err := s.readUpload(r, "column_mapping")
	if err != nil {
		s.writeUploadError(w, r, err)
		return
	}
	keep := false
	defer func() {
		if !keep {
			up.remove()
		}
	}()
	rawMap, hasMap := up.fields["column_mapping"]
	mapping, probs := parseMapping(rawMap, hasMap)
	if up.filePath == "" {
		probs = append(probs, FieldError{Field: "file", Message: "required: the CSV file of phone numbers (form field \"file\")"})
	}
	var head *fileHead
	var sc *csvScanner
	if up.filePath != "" {
		var f *os.File
		var ferr *FieldError
		f, sc, head, ferr = openCSV(up.filePath)
		if ferr != nil {
			probs = append(probs, *ferr)
		} else {
			defer f.Close()
		}
	}
	if len(probs) == 0 && mapping != nil {
		keys := make([]string, 0, len(mapping))
		for k := range mapping {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k != "phone" {
				probs = append(probs, FieldError{Field: "column_mapping." + k, Message: fmt.Sprintf("unknown key %q; the only key is \"phone\"", k)})
			}
		}
		if v, ok := mapping["phone"]; !ok {
			probs = append(probs, FieldError{Field: "column_mapping.phone", Message: "required: the CSV header of the phone column"})
		} else if head.col(v) < 0 {
			probs = append(probs, FieldError{Field: "column_mapping.phone", Message: fmt.Sprintf("column %q is not in the CSV; available headers: %s", v, quoteList(head.headers))})
		}
	}
	if len(probs) > 0 {
		writeAPIError(w, validationErr(probs...))
		return
	}
	rows := 0
	for sc.Next() {
		if !sc.Blank() {
			rows++
		}
	}
	if err := sc.Err(); err != nil {
		writeAPIError(w, validationErr(FieldError{Field: "file", Message: err.Error()}))
		return
	}
	if rows == 0 {
		writeAPIError(w, validationErr(FieldError{Field: "file", Message: "no data rows: the file has a header row but no data rows"}))
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		writePlain(w, http.StatusServiceUnavailable, "the sandbox is shutting down", "SERVICE_UNAVAILABLE")
		return
	}
	if rows > s.cfg.RecordLimit {
		limit := s.cfg.RecordLimit
		s.mu.Unlock()
		writeAPIError(w, plainErr(http.StatusUnprocessableEntity, "RECORD_LIMIT_EXCEEDED",
			fmt.Sprintf("the file has %d data rows; the per-job record limit is %d", rows, limit)))
		return
	}
	cost := int64(rows) * s.cfg.Rates.DNC
	if ae := s.charge(a, cost); ae != nil {
		s.mu.Unlock()
		writeAPIError(w, ae)
		return
	}
	j := s.newJob(kindDNC, a, r)
	j.name = up.fileName
	j.totalRows = rows
	j.creditsCharged = cost
	j.inputPath = up.filePath
	j.headers = head.headers
	j.phoneCol = head.col(mapping["phone"])
	j.failUpload = strings.Contains(up.fileName, "FAILJOB")
	keep = true
	s.schedule(j)
	drop := s.takeDrop()
	body := struct {
		ID             string `json:"id"`
		Name           string `json:"name"`
		Status         string `json:"status"`
		TotalRows      int    `json:"total_rows"`
		Rate           int64  `json:"rate"`
		CreditsCharged int64  `json:"credits_charged"`
	}{j.id, j.name, j.status, j.totalRows, j.rates.DNC, cost}
	s.mu.Unlock()
	if drop {
		panic(http.ErrAbortHandler) // faults.drop_create_responses: charged, no answer
	}
	writeJSON(w, http.StatusCreated, body)
}
