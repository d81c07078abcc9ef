package sandbox

import (
	"fmt"
	"net/http"
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
	f, sc, head := openUpload(up, "the CSV file of phone numbers", &probs)
	if f != nil {
		defer f.Close()
	}
	if len(probs) == 0 && mapping != nil {
		probs = dncMappingProblems(mapping, head)
	}
	if len(probs) > 0 {
		writeAPIError(w, validationErr(probs...))
		return
	}
	rows, ok := dataRows(w, sc, nil)
	if !ok {
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

// dncMappingProblems checks a DNC upload's column_mapping against its
// header: "phone" is its one key, naming a column of the file.
func dncMappingProblems(mapping map[string]string, head *fileHead) []FieldError {
	var probs []FieldError
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
	return probs
}
