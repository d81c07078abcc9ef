package workflow

import (
	"testing"
)

// TestScrubFirst: the callable list of a trace never scrubbed is offered
// its scrub first, priced — each distinct number once, at the DNC rate —
// and once the scrub is downloaded nothing more is asked.
func TestScrubFirst(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	events := eventsOf(t, d)
	done := traceSample(ctx, t, d, events)
	offer, err := d.Jobs().ScrubFirst(ctx, done)
	if err != nil || offer == nil {
		t.Fatalf("before the scrub: %+v %v", offer, err)
	}
	rates, err := d.Quotes().Rates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if offer.Phones == 0 || offer.Credits != int64(offer.Phones)*int64(rates.Pricing.Rates.DNC) {
		t.Errorf("offered %d phones for %d credits at %d a phone", offer.Phones, offer.Credits, rates.Pricing.Rates.DNC)
	}
	scrubTracePhones(ctx, t, d, events, done)
	if offer, err := d.Jobs().ScrubFirst(ctx, done); err != nil || offer != nil {
		t.Errorf("after the scrub: %+v %v", offer, err)
	}
}
