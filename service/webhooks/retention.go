package webhooks

import (
	"context"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/webhookattempt"
	"github.com/checkoutd/checkoutd/ent/webhookdelivery"
	"github.com/checkoutd/checkoutd/service/platform"
)

// DeliveryRetention is how long a finished delivery and its attempts are kept for the delivery
// log (CHECKOUT_RETENTION_WEBHOOK_DELIVERIES overrides it).
const DeliveryRetention = 30 * 24 * time.Hour

// retentionRule deletes finished deliveries made before the cutoff with their attempts; a
// delivery still pending is kept whatever its age.
func (s *Service) retentionRule() platform.RetentionRule {
	return platform.RetentionRule{Name: "webhook_deliveries", Keep: DeliveryRetention, Min: time.Hour, DeleteBatch: s.deleteOldDeliveries}
}

// deleteOldDeliveries walks the oldest deliveries by id (ids grow with time, so the walk stops at
// the first one made after the cutoff and never reads the recent ones).
func (s *Service) deleteOldDeliveries(ctx context.Context, before time.Time, after, limit int) (int, int, bool, error) {
	rows, err := s.p.DB.Client.WebhookDelivery.Query().Where(webhookdelivery.IDGT(after)).
		Order(ent.Asc(webhookdelivery.FieldID)).Limit(limit).
		Select(webhookdelivery.FieldID, webhookdelivery.FieldStatus, webhookdelivery.FieldCreatedAt).All(ctx)
	if err != nil {
		return 0, after, false, err
	}
	var old []int
	done := len(rows) < limit
	for _, d := range rows {
		if !d.CreatedAt.Before(before) {
			done = true
			break
		}
		after = d.ID
		if d.Status != webhookdelivery.StatusPending {
			old = append(old, d.ID)
		}
	}
	if len(old) == 0 {
		return 0, after, done, nil
	}
	deleted := 0
	err = s.p.InTx(ctx, func(tx *ent.Tx) error {
		// A delivery that went back to pending since it was read (a replay) is kept, attempts and all.
		ids, err := tx.WebhookDelivery.Query().Where(webhookdelivery.IDIn(old...), webhookdelivery.StatusNEQ(webhookdelivery.StatusPending)).IDs(ctx)
		if err != nil || len(ids) == 0 {
			return err
		}
		if _, err := tx.WebhookAttempt.Delete().Where(webhookattempt.DeliveryIDIn(ids...)).Exec(ctx); err != nil {
			return err
		}
		deleted, err = tx.WebhookDelivery.Delete().Where(webhookdelivery.IDIn(ids...)).Exec(ctx)
		return err
	})
	return deleted, after, done, err
}
