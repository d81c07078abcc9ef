package sandbox

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"slices"
	"time"
)

// schedule arms the job's finalisation timer; the caller holds s.mu.
func (s *Server) schedule(j *job) {
	p := s.cfg.Processing
	d := p.MinSeconds
	if p.RowsPerSecond > 0 {
		d = math.Max(d, float64(j.totalRows)/p.RowsPerSecond)
	}
	j.timer = time.AfterFunc(seconds(d), func() { s.finalize(j) })
}

// FinishPending finalises every processing job now, without waiting for its
// timer (webhooks are still sent in the background).
func (s *Server) FinishPending() { s.Finish() }

// Finish finalises the processing jobs of these ids (every one when none
// is named) now, without waiting for their timers; a job its timer is
// finalising already is waited for. When it returns, each of them is
// completed or failed.
func (s *Server) Finish(ids ...string) {
	s.mu.Lock()
	var pending []*job
	var finishing []chan struct{}
	for _, j := range s.order {
		if j.status != statusProcessing || len(ids) > 0 && !slices.Contains(ids, j.id) {
			continue
		}
		if j.finalizing {
			finishing = append(finishing, j.finished)
		} else {
			pending = append(pending, j)
		}
	}
	s.mu.Unlock()
	for _, j := range pending {
		s.finalize(j)
	}
	for _, ch := range finishing {
		<-ch
	}
}

// finalize computes a job's results and moves it to completed or failed.
// It runs once per job, on its timer or from FinishPending.
func (s *Server) finalize(j *job) {
	s.mu.Lock()
	if s.closed || j.finalizing || j.status != statusProcessing {
		s.mu.Unlock()
		return
	}
	j.finalizing = true
	j.finished = make(chan struct{})
	if j.timer != nil {
		j.timer.Stop()
	}
	s.bg.Add(1)
	matchRate := s.cfg.MatchRate
	s.mu.Unlock()
	defer s.bg.Done()
	defer close(j.finished) // after the job's outcome is set (the deferred unlock below runs first)

	var res *jobResult
	var err error
	if !j.failUpload {
		res, err = s.produceResult(j, matchRate)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	j.doneAt = s.now().UTC().Truncate(time.Millisecond)
	switch {
	case j.failUpload || err != nil:
		if err != nil {
			s.logger.Printf("sandbox: job %s: %v", j.id, err)
			j.errMsg = "the job failed while producing its result; all credits were refunded"
		} else {
			j.errMsg = "the provider could not process this file (the file name contains FAILJOB); all credits were refunded"
		}
		j.status = statusFailed
		j.creditsRefunded = j.creditsCharged
		if j.breakdown != nil {
			j.breakdown.Individuals.CreditsRefunded = j.breakdown.Individuals.CreditsCharged
			j.breakdown.LLCs.CreditsRefunded = j.breakdown.LLCs.CreditsCharged
		}
	default:
		j.status = statusCompleted
		j.resultPath = res.path
		j.matchCount, j.noMatchCount, j.errorCount = res.match, res.noMatch, res.errors
		j.creditsRefunded = res.refund
		if j.breakdown != nil {
			ind, llc := &j.breakdown.Individuals, &j.breakdown.LLCs
			ind.Match, ind.NoMatch, ind.Error, ind.CreditsRefunded = res.tiers[0].match, res.tiers[0].noMatch, res.tiers[0].errors, res.tiers[0].refund
			llc.Match, llc.NoMatch, llc.Error, llc.CreditsRefunded = res.tiers[1].match, res.tiers[1].noMatch, res.tiers[1].errors, res.tiers[1].refund
		}
	}
	s.refund(j.owner, j.creditsRefunded)
	if j.inputPath != "" {
		os.Remove(j.inputPath)
		j.inputPath = ""
	}
	s.queueWebhook(j)
}

type tally struct {
	match, noMatch, errors int
	refund                 int64
}

type jobResult struct {
	path string
	tally
	tiers [2]tally // individuals, llcs
}

func (t *tally) add(out int, rate int64) {
	switch out {
	case outMatched:
		t.match++
	case outNoMatch:
		t.noMatch++
		t.refund += rate
	default:
		t.errors++
		t.refund += rate
	}
}

// Result columns appended after the input columns (docs/sandbox.md).
var (
	traceResultColumns = []string{"owner_first_name", "owner_last_name", "phone_1", "phone_1_type",
		"phone_2", "phone_2_type", "phone_3", "phone_3_type", "email_1", "email_2", "is_entity", "match_status"}
	dncResultColumns = []string{"phone_normalized", "dnc", "litigator", "line_type", "status"}
)

// resultHeader is the input headers then the result columns, each result
// column prefixed "result_" when an input header has its name.
func resultHeader(input, extra []string) []string {
	have := map[string]bool{}
	for _, h := range input {
		have[h] = true
	}
	out := append([]string{}, input...)
	for _, c := range extra {
		if have[c] {
			c = "result_" + c
		}
		out = append(out, c)
	}
	return out
}

// produceResult reads the job's input again and writes its result CSV.
func (s *Server) produceResult(j *job, matchRate float64) (*jobResult, error) {
	in, err := os.Open(j.inputPath)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	path := fmt.Sprintf("%s/result-%d.csv", s.dir, j.seq)
	out, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	cw := csv.NewWriter(bw)
	cw.UseCRLF = true
	res := &jobResult{path: path}

	sc := newCSVScanner(in)
	header := true
	width := len(j.headers)
	fields := make([][]byte, width)
	rec := make([]string, 0, width+len(traceResultColumns))
	for sc.Next() {
		if sc.Blank() {
			continue
		}
		if header {
			header = false
			extra := traceColumns(j)
			if j.kind == kindDNC {
				extra = dncColumns(j)
			}
			if err := cw.Write(resultHeader(j.headers, extra)); err != nil {
				break
			}
			continue
		}
		rec = rec[:0]
		for i := range width { // ragged rows: padded with blanks or cut to the header
			fields[i] = sc.Field(i)
			rec = append(rec, string(fields[i]))
		}
		if j.kind == kindDNC {
			rec = s.dncRow(j, rec, res)
		} else {
			rec = s.traceRow(j, fields, rec, res, matchRate)
		}
		if err := cw.Write(rec); err != nil {
			break
		}
	}
	cw.Flush()
	err = sc.Err()
	if err == nil {
		err = cw.Error()
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	return res, nil
}

func (s *Server) traceRow(j *job, fields [][]byte, rec []string, res *jobResult, matchRate float64) []string {
	first, last := j.nameCols[0], j.nameCols[1]
	var fn, ln []byte
	if first >= 0 && first < len(fields) {
		fn = fields[first]
	}
	if last >= 0 && last < len(fields) {
		ln = fields[last]
	}
	entity := (first >= 0 || last >= 0) && isEntityName(fn, ln)
	if entity && !j.includeLLCs {
		return appendTrace(j, rec, outSkipped, 0, "", "", true)
	}
	rate, t := j.rates.Normal, 0
	if j.mode == "enhanced" {
		rate = j.rates.Enhanced
	}
	if entity {
		t = 1
		if j.mode == "normal" {
			rate = j.rates.LLC
		}
	}
	out := rowOutcome(fields, matchRate)
	res.tally.add(out, rate)
	res.tiers[t].add(out, rate)
	return appendTrace(j, rec, out, rowHash(fields), string(fn), string(ln), entity)
}

func (s *Server) dncRow(j *job, rec []string, res *jobResult) []string {
	raw := ""
	if j.phoneCol >= 0 && j.phoneCol < len(rec) {
		raw = rec[j.phoneCol]
	}
	num, ok := normalizePhone(raw)
	if !ok {
		res.errors++
		res.refund += j.rates.DNC
		return appendDNC(j, rec, "")
	}
	if dnc, lit, _ := dncFlags(num); dnc || lit {
		res.match++
	}
	return appendDNC(j, rec, num)
}

// writeSingleResult writes the one-row result file of a single trace.
func (s *Server) writeSingleResult(j *job, vals map[string]string, entity bool, out int) (string, error) {
	path := fmt.Sprintf("%s/result-%d.csv", s.dir, j.seq)
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	cw := csv.NewWriter(f)
	cw.UseCRLF = true
	cw.Write(resultHeader(singleFields, traceColumns(j)))
	rec := make([]string, 0, len(singleFields)+len(traceColumns(j)))
	fields := make([][]byte, len(singleFields))
	for i, k := range singleFields {
		rec = append(rec, vals[k])
		fields[i] = []byte(vals[k])
	}
	cw.Write(appendTrace(j, rec, out, rowHash(fields), vals["first_name"], vals["last_name"], entity))
	cw.Flush()
	err = cw.Error()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", err
	}
	return path, nil
}
