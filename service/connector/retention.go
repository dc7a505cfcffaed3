package connector

import (
	"context"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/connectorattempt"
	"github.com/checkoutd/checkoutd/ent/connectorcall"
	"github.com/checkoutd/checkoutd/service/platform"
)

// CallRetention is how long a finished connector call and its attempts are kept for the call
// log (CHECKOUT_RETENTION_CONNECTOR_CALLS overrides it).
const CallRetention = 30 * 24 * time.Hour

// retentionRule deletes finished calls made before the cutoff with their attempts; a call
// still pending is kept whatever its age.
func (s *Service) retentionRule() platform.RetentionRule {
	return platform.RetentionRule{Name: "connector_calls", Keep: CallRetention, Min: time.Hour,
		DeleteBatch: platform.WalkOldest(s.oldestConnectorCalls, s.removeConnectorCalls)}
}

func (s *Service) oldestConnectorCalls(ctx context.Context, after, limit int) ([]platform.OldRecord, error) {
	rows, err := s.p.DB.Client.ConnectorCall.Query().Where(connectorcall.IDGT(after)).
		Order(ent.Asc(connectorcall.FieldID)).Limit(limit).
		Select(connectorcall.FieldID, connectorcall.FieldStatus, connectorcall.FieldCreatedAt).All(ctx)
	out := make([]platform.OldRecord, len(rows))
	for i, r := range rows {
		out[i] = platform.OldRecord{ID: r.ID, Made: r.CreatedAt, Finished: r.Status != connectorcall.StatusPending}
	}
	return out, err
}

// removeConnectorCalls deletes the calls with their attempts; one that went back to pending since it
// was read (a replay) is kept, attempts and all.
func (s *Service) removeConnectorCalls(ctx context.Context, old []int) (int, error) {
	deleted := 0
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		ids, err := tx.ConnectorCall.Query().Where(connectorcall.IDIn(old...), connectorcall.StatusNEQ(connectorcall.StatusPending)).IDs(ctx)
		if err != nil || len(ids) == 0 {
			return err
		}
		if _, err := tx.ConnectorAttempt.Delete().Where(connectorattempt.CallIDIn(ids...)).Exec(ctx); err != nil {
			return err
		}
		deleted, err = tx.ConnectorCall.Delete().Where(connectorcall.IDIn(ids...)).Exec(ctx)
		return err
	})
	return deleted, err
}
