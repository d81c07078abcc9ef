package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"
)

func (s *Server) createHandler(kind string) func(http.ResponseWriter, *http.Request, *account, string) {
	if kind == kindDNC {
		return s.handleCreateDNC
	}
	return s.handleCreateTrace
}

// writeUploadError answers a failed readUpload.
func (s *Server) writeUploadError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	switch {
	case errors.Is(err, errTooLarge):
		s.tooLarge(w, r)
	case errors.As(err, &ae):
		writeAPIError(w, ae)
	default:
		s.logger.Printf("sandbox: upload: %v", err)
		writePlain(w, http.StatusInternalServerError, "the upload could not be stored", "INTERNAL_ERROR")
	}
}

// parseMapping decodes column_mapping: a JSON object of string values.
func parseMapping(raw string, present bool) (map[string]string, []FieldError) {
	if !present || strings.TrimSpace(raw) == "" {
		return nil, []FieldError{{Field: "column_mapping", Message: "required: a JSON object mapping field keys to CSV header names"}}
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(raw))
	if err := dec.Decode(&v); err != nil {
		return nil, []FieldError{{Field: "column_mapping", Message: "not valid JSON: " + err.Error()}}
	}
	if dec.More() {
		return nil, []FieldError{{Field: "column_mapping", Message: "not valid JSON: unexpected data after the object"}}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, []FieldError{{Field: "column_mapping", Message: fmt.Sprintf("must be a JSON object, not %s", jsonKind(v))}}
	}
	m := map[string]string{}
	var probs []FieldError
	keys := slices.Sorted(maps.Keys(obj))
	for _, k := range keys {
		str, ok := obj[k].(string)
		if !ok {
			probs = append(probs, FieldError{Field: "column_mapping." + k, Message: fmt.Sprintf("must be a string (a CSV header name), not %s", jsonKind(obj[k]))})
			continue
		}
		m[k] = strings.TrimSpace(str)
	}
	return m, probs
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	default:
		return "an object"
	}
}

func parseBool(field, v string, present bool) (bool, *FieldError) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1":
		return true, nil
	case "false", "0", "":
		return false, nil
	}
	return false, &FieldError{Field: field, Message: fmt.Sprintf("must be true or false, not %q", v)}
}

func (s *Server) handleCreateTrace(w http.ResponseWriter, r *http.Request, a *account, _ string) {
	up, err := s.readUpload(r, "mode", "column_mapping", "include_llcs")
	if err != nil {
		s.writeUploadError(w, r, err)
		return
	}
	defer up.release()
	mode, llcs, mapping, probs := traceFields(up)
	f, sc, head := openUpload(up, "the CSV file to trace", &probs)
	if f != nil {
		defer f.Close()
	}
	if len(probs) > 0 {
		writeAPIError(w, validationErr(probs...))
		return
	}
	if details := validateMapping(mode, mapping, head.headers); len(details) > 0 {
		msg := "column_mapping is invalid"
		if len(details) > 1 {
			msg = fmt.Sprintf("column_mapping is invalid (%d problems)", len(details))
		}
		writeAPIError(w, &apiError{status: http.StatusBadRequest, message: msg, mapping: details})
		return
	}
	first, last := -1, -1
	if v, ok := mapping["first_name"]; ok {
		first = head.col(v)
	}
	if v, ok := mapping["last_name"]; ok {
		last = head.col(v)
	}
	entities := 0
	rows, ok := dataRows(w, sc, func() {
		if (first >= 0 || last >= 0) && isEntityName(sc.Field(first), sc.Field(last)) {
			entities++
		}
	})
	if !ok {
		return
	}
	s.mu.Lock()
	limit, rates := s.cfg.RecordLimit, s.cfg.Rates
	s.mu.Unlock()
	if rows > limit {
		writeAPIError(w, recordLimitErr(rows, limit))
		return
	}
	cost, bd := traceCost(rates, mode, llcs, rows-entities, entities)

	s.mu.Lock()
	if !s.chargeLocked(w, a, cost) {
		return
	}
	j := s.newJob(kindTrace, a, r)
	j.traceType = "bulk"
	j.name = up.fileName
	j.mode = mode
	j.includeLLCs = llcs
	j.totalRows = rows
	j.entityRows = entities
	j.creditsCharged = cost
	j.breakdown = bd
	j.inputPath = up.filePath
	j.headers = head.headers
	j.nameCols = []int{first, last}
	j.mapped = mappedColumns(mapping, head.col)
	j.failUpload = strings.Contains(up.fileName, "FAILJOB")
	up.kept = true
	s.schedule(j)
	body := traceCreatedJSON{
		Success: true, ID: j.id, Status: j.status, Mode: j.mode, IncludeLLCs: j.includeLLCs,
		TotalRows: j.totalRows, EntityRows: j.entityRows, Cost: cost, CreditsCharged: cost, Columns: mapping,
	}
	s.answerCreated(w, body)
}

// traceFields reads a trace upload's mode, include_llcs and column_mapping,
// with the problems found in them.
func traceFields(up *upload) (mode string, llcs bool, mapping map[string]string, probs []FieldError) {
	mode = strings.ToLower(strings.TrimSpace(up.fields["mode"]))
	if mode == "" {
		mode = "normal"
	}
	if mode != "normal" && mode != "enhanced" {
		probs = append(probs, FieldError{Field: "mode", Message: fmt.Sprintf("must be \"normal\" or \"enhanced\", not %q", up.fields["mode"])})
	}
	llcs, fe := parseBool("include_llcs", up.fields["include_llcs"], true)
	if fe != nil {
		probs = append(probs, *fe)
	}
	rawMap, hasMap := up.fields["column_mapping"]
	mapping, mprobs := parseMapping(rawMap, hasMap)
	return mode, llcs, mapping, append(probs, mprobs...)
}

// traceCost is what a trace of these rows costs at these rates, and its
// breakdown by tier when LLCs are included.
func traceCost(rates Rates, mode string, llcs bool, individuals, entities int) (int64, *breakdown) {
	rate, llcRate := rates.Normal, rates.LLC
	if mode != "normal" {
		rate, llcRate = rates.Enhanced, rates.Enhanced
	}
	if !llcs {
		return int64(individuals) * rate, nil
	}
	bd := &breakdown{
		Individuals: tier{Rate: rate, Rows: individuals, CreditsCharged: int64(individuals) * rate},
		LLCs:        tier{Rate: llcRate, Rows: entities, CreditsCharged: int64(entities) * llcRate},
	}
	return bd.Individuals.CreditsCharged + bd.LLCs.CreditsCharged, bd
}

// openUpload opens an upload's CSV file (what names it in the message when
// it is missing); a problem is added to probs. The file is nil when it
// could not be opened.
func openUpload(up *upload, what string, probs *[]FieldError) (*os.File, *csvScanner, *fileHead) {
	if up.filePath == "" {
		*probs = append(*probs, FieldError{Field: "file", Message: "required: " + what + " (form field \"file\")"})
		return nil, nil, nil
	}
	f, sc, head, ferr := openCSV(up.filePath)
	if ferr != nil {
		*probs = append(*probs, *ferr)
		return nil, nil, nil
	}
	return f, sc, head
}

// dataRows counts the file's data rows (blank ones left out), calling each
// (when not nil) on every one; when the file cannot be read or has none,
// it answers the request so and returns false.
func dataRows(w http.ResponseWriter, sc *csvScanner, each func()) (int, bool) {
	rows := 0
	for sc.Next() {
		if sc.Blank() {
			continue
		}
		rows++
		if each != nil {
			each()
		}
	}
	if err := sc.Err(); err != nil {
		writeAPIError(w, validationErr(FieldError{Field: "file", Message: err.Error()}))
		return 0, false
	}
	if rows == 0 {
		writeAPIError(w, validationErr(FieldError{Field: "file", Message: "no data rows: the file has a header row but no data rows"}))
		return 0, false
	}
	return rows, true
}

// traceCreatedJSON is the 201 body of POST /traces, exactly the spec's fields.
type traceCreatedJSON struct {
	Success        bool              `json:"success"`
	ID             string            `json:"id"`
	Status         string            `json:"status"`
	Mode           string            `json:"mode"`
	IncludeLLCs    bool              `json:"include_llcs"`
	TotalRows      int               `json:"total_rows"`
	EntityRows     int               `json:"entity_rows"`
	Cost           int64             `json:"cost"`
	CreditsCharged int64             `json:"credits_charged"`
	Columns        map[string]string `json:"columns"`
}

// chargeLocked takes cost credits for a new job; the caller holds s.mu.
// When the sandbox is shutting down or the account cannot pay, it answers
// the refusal, releases s.mu and returns false.
func (s *Server) chargeLocked(w http.ResponseWriter, a *account, cost int64) bool {
	if s.closed {
		s.mu.Unlock()
		writePlain(w, http.StatusServiceUnavailable, "the sandbox is shutting down", "SERVICE_UNAVAILABLE")
		return false
	}
	if ae := s.charge(a, cost); ae != nil {
		s.mu.Unlock()
		writeAPIError(w, ae)
		return false
	}
	return true
}

// recordLimitErr refuses a file over the per-job record limit.
func recordLimitErr(rows, limit int) *apiError {
	return plainErr(http.StatusUnprocessableEntity, "RECORD_LIMIT_EXCEEDED",
		fmt.Sprintf("the file has %d data rows; the per-job record limit is %d", rows, limit))
}

// answerCreated releases s.mu, which the caller holds, and answers 201 with
// body, unless faults.drop_create_responses drops the answer of this
// charged request.
func (s *Server) answerCreated(w http.ResponseWriter, body any) {
	drop := s.takeDrop()
	s.mu.Unlock()
	if drop {
		panic(http.ErrAbortHandler) // charged, no answer
	}
	writeJSON(w, http.StatusCreated, body)
}

// takeDrop consumes one faults.drop_create_responses; the caller holds s.mu.
func (s *Server) takeDrop() bool {
	if s.drops > 0 {
		s.drops--
		return true
	}
	return false
}

// singleRequest fields in the order their values are hashed.
var singleFields = []string{"first_name", "last_name", "address", "city", "state", "zip",
	"mailing_address", "mailing_city", "mailing_state", "mailing_zip"}

func (s *Server) handleSingle(w http.ResponseWriter, r *http.Request, a *account, _ string) {
	body, err := readLimited(r, 64<<10)
	if errors.Is(err, errTooLarge) {
		writePlain(w, http.StatusRequestEntityTooLarge, "the JSON body is larger than 64 KB", "PAYLOAD_TOO_LARGE")
		return
	}
	if err != nil {
		writeAPIError(w, validationErr(FieldError{Field: "body", Message: "reading the body: " + err.Error()}))
		return
	}
	vals, forceEntity, ae := parseSingle(body)
	if ae != nil {
		writeAPIError(w, ae)
		return
	}
	entity := forceEntity || isEntityName([]byte(vals["first_name"]), []byte(vals["last_name"]))
	fields := make([][]byte, len(singleFields))
	for i, k := range singleFields {
		fields[i] = []byte(vals[k])
	}

	s.mu.Lock()
	rates, matchRate := s.cfg.Rates, s.cfg.MatchRate
	cost := rates.Normal
	if entity {
		cost = rates.LLC
	}
	if !s.chargeLocked(w, a, cost) {
		return
	}
	j := s.newJob(kindTrace, a, r)
	j.traceType = "single"
	j.mode = "normal"
	j.mapped = singleMapped
	j.name = strings.TrimSpace("Single: " + vals["first_name"] + " " + vals["last_name"])
	j.totalRows = 1
	j.creditsCharged = cost
	if entity {
		j.entityRows = 1
	}
	s.mu.Unlock()

	out := rowOutcome(fields, matchRate)
	res := singleResponse(j.id, vals, entity, cost, out, rowHash(fields))
	resultPath, werr := s.writeSingleResult(j, vals, entity, out)
	s.finishSingle(a, j, cost, out, resultPath, werr)
	writeJSON(w, http.StatusOK, res)
}

// parseSingle reads the JSON body of a single trace: its string fields,
// trimmed, and is_entity; or the validation error naming every field at
// fault.
func parseSingle(body []byte) (vals map[string]string, forceEntity bool, ae *apiError) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil || raw == nil {
		msg := "the body must be a JSON object"
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, false, validationErr(FieldError{Field: "body", Message: msg})
	}
	vals = map[string]string{}
	var probs []FieldError
	for _, k := range singleFields {
		rv, ok := raw[k]
		if !ok || string(rv) == "null" {
			continue
		}
		var str string
		if err := json.Unmarshal(rv, &str); err != nil {
			probs = append(probs, FieldError{Field: k, Message: "must be a string"})
			continue
		}
		vals[k] = strings.TrimSpace(str)
	}
	if rv, ok := raw["is_entity"]; ok && string(rv) != "null" {
		if err := json.Unmarshal(rv, &forceEntity); err != nil {
			probs = append(probs, FieldError{Field: "is_entity", Message: "must be a boolean"})
		}
	}
	if probs = singleProblems(vals, probs); len(probs) > 0 {
		return nil, false, validationErr(probs...)
	}
	return vals, forceEntity, nil
}

// singleProblems adds to probs the required fields a single trace lacks
// (the mailing ones once mailing_address is given) and its state codes that
// are not two letters. A field already at fault is not reported again.
func singleProblems(vals map[string]string, probs []FieldError) []FieldError {
	for _, k := range []string{"first_name", "address", "city", "state", "zip"} {
		if _, bad := findField(probs, k); !bad && vals[k] == "" {
			probs = append(probs, FieldError{Field: k, Message: "required"})
		}
	}
	if st := vals["state"]; st != "" && !twoLetters(st) {
		probs = append(probs, FieldError{Field: "state", Message: "must be a 2-letter state code"})
	}
	if vals["mailing_address"] != "" {
		for _, k := range []string{"mailing_city", "mailing_state", "mailing_zip"} {
			if _, bad := findField(probs, k); !bad && vals[k] == "" {
				probs = append(probs, FieldError{Field: k, Message: "required when mailing_address is set"})
			}
		}
		if st := vals["mailing_state"]; st != "" && !twoLetters(st) {
			probs = append(probs, FieldError{Field: "mailing_state", Message: "must be a 2-letter state code"})
		}
	}
	return probs
}

// singleResponse is the 200 body of a single trace: the person's phones and
// e-mails when matched (synthesised from h, the row's hash), the charge
// refunded otherwise.
func singleResponse(id string, vals map[string]string, entity bool, cost int64, out int, h uint32) map[string]any {
	res := map[string]any{
		"id":               id,
		"matched":          out == outMatched,
		"first_name":       vals["first_name"],
		"last_name":        vals["last_name"],
		"phones":           []map[string]string{},
		"emails":           []string{},
		"credits":          cost,
		"credits_refunded": int64(0),
		"is_entity":        entity,
	}
	if out == outMatched {
		c := synthContact(h, vals["first_name"], vals["last_name"], entity)
		phones := []map[string]string{}
		for _, p := range c.phones {
			phones = append(phones, map[string]string{"number": p[0], "type": p[1]})
		}
		res["phones"], res["emails"] = phones, append([]string{}, c.emails...)
	} else {
		res["credits_refunded"] = cost
	}
	return res
}

// finishSingle records a single trace's outcome on its job, refunds a row
// that did not match, and completes the job (failed when its result file
// could not be written).
func (s *Server) finishSingle(a *account, j *job, cost int64, out int, resultPath string, werr error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch out {
	case outMatched:
		j.matchCount = 1
	case outNoMatch:
		j.noMatchCount = 1
	default:
		j.errorCount = 1
	}
	if out != outMatched {
		j.creditsRefunded = cost
		s.refund(a, cost)
	}
	j.doneAt = s.now().UTC().Truncate(time.Millisecond)
	j.status = statusCompleted
	j.resultPath = resultPath
	if werr != nil {
		s.logger.Printf("sandbox: single trace result: %v", werr)
		j.status, j.errMsg = statusFailed, "the result file could not be written"
	}
}

func findField(fs []FieldError, name string) (FieldError, bool) {
	for _, f := range fs {
		if f.Field == name {
			return f, true
		}
	}
	return FieldError{}, false
}

func twoLetters(s string) bool {
	return len(s) == 2 && isLetter(s[0]) && isLetter(s[1])
}

func isLetter(c byte) bool { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') }

func readLimited(r *http.Request, n int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, n+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > n {
		return nil, errTooLarge
	}
	return b, nil
}
