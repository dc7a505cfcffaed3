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

// retentionRule deletes finished deliverys made before the cutoff with their attempts; a delivery
// still pending is kept whatever its age.
func (s *Service) retentionRule() platform.RetentionRule {
	return platform.RetentionRule{Name: "webhook_deliveries", Keep: DeliveryRetention, Min: time.Hour,
		DeleteBatch: platform.WalkOldest(s.oldestWebhookDeliverys, s.removeWebhookDeliverys)}
}

func (s *Service) oldestWebhookDeliverys(ctx context.Context, after, limit int) ([]platform.OldRecord, error) {
	rows, err := s.p.DB.Client.WebhookDelivery.Query().Where(webhookdelivery.IDGT(after)).
		Order(ent.Asc(webhookdelivery.FieldID)).Limit(limit).
		Select(webhookdelivery.FieldID, webhookdelivery.FieldStatus, webhookdelivery.FieldCreatedAt).All(ctx)
	out := make([]platform.OldRecord, len(rows))
	for i, r := range rows {
		out[i] = platform.OldRecord{ID: r.ID, Made: r.CreatedAt, Finished: r.Status != webhookdelivery.StatusPending}
	}
	return out, err
}

// removeWebhookDeliverys deletes the deliverys with their attempts; one that went back to pending since it
// was read (a replay) is kept, attempts and all.
func (s *Service) removeWebhookDeliverys(ctx context.Context, old []int) (int, error) {
	deleted := 0
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
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
	return deleted, err
}
