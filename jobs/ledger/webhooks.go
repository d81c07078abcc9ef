package ledger

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// MarkDelivery records a webhook delivery as handled. It reports false when
// the delivery id was already recorded (a retry or a replay): the caller must
// then not act on it again.
func (l *Webhooks) MarkDelivery(ctx context.Context, deliveryID, jobID, event, status string) (first bool, err error) {
	if deliveryID == "" {
		return false, errors.New("ledger: a webhook delivery needs an id")
	}
	err = l.tx(ctx, func(tx *sqldb.Tx) error {
		r, err := tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (delivery_id, job_id, event, status, seen_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT(delivery_id) DO NOTHING`,
			deliveryID, jobID, event, status, l.now().UnixMilli())
		if err != nil {
			return fmt.Errorf("ledger: record delivery %s: %w", deliveryID, err)
		}
		n, _ := r.RowsAffected()
		first = n == 1
		return nil
	})
	return first, err
}

// SeenDelivery reports whether a webhook delivery id was recorded.
func (l *Webhooks) SeenDelivery(ctx context.Context, deliveryID string) (bool, error) {
	var n int
	err := l.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM webhook_deliveries WHERE delivery_id = ?", deliveryID).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("ledger: delivery %s: %w", deliveryID, err)
	}
	return n > 0, nil
}

// DeliveryDedupe remembers handled webhook deliveries in the ledger, across
// restarts. It implements client/webhook's Dedupe.
type DeliveryDedupe struct {
	L *Ledger
}

// Seen records key and reports whether it had been recorded before.
func (d DeliveryDedupe) Seen(key string) (bool, error) {
	// client/webhook's keys: "delivery:<id>" and "job:<event>:<job id>:<status>".
	jobID, event, status := "", "", "received"
	if rest, ok := strings.CutPrefix(key, "job:"); ok {
		if parts := strings.Split(rest, ":"); len(parts) >= 3 {
			event, jobID, status = parts[0], strings.Join(parts[1:len(parts)-1], ":"), parts[len(parts)-1]
		}
	}
	first, err := d.L.webhooks().MarkDelivery(context.Background(), key, jobID, event, status)
	if err != nil {
		return false, err
	}
	return !first, nil
}
