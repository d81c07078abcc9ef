package sandbox

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
)

func (s *Server) handleCreateDNC(w http.ResponseWriter, r *http.Request, a *account, _ string) {
	up, err := s.readUpload(r, "column_mapping")
	if err != nil {
		s.writeUploadError(w, r, err)
		return
	}
	defer up.release()
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
	limit, rate := s.cfg.RecordLimit, s.cfg.Rates.DNC
	s.mu.Unlock()
	if rows > limit {
		writeAPIError(w, recordLimitErr(rows, limit))
		return
	}
	cost := int64(rows) * rate
	s.mu.Lock()
	if !s.chargeLocked(w, a, cost) {
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
	up.kept = true
	s.schedule(j)
	body := struct {
		ID             string `json:"id"`
		Name           string `json:"name"`
		Status         string `json:"status"`
		TotalRows      int    `json:"total_rows"`
		Rate           int64  `json:"rate"`
		CreditsCharged int64  `json:"credits_charged"`
	}{j.id, j.name, j.status, j.totalRows, j.rates.DNC, cost}
	s.answerCreated(w, body)
}

// dncMappingProblems checks a DNC upload's column_mapping against its
// header: "phone" is its one key, naming a column of the file.
func dncMappingProblems(mapping map[string]string, head *fileHead) []FieldError {
	var probs []FieldError
	keys := slices.Sorted(maps.Keys(mapping))
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
