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

// retentionRule deletes finished calls made before the cutoff with their attempts; a call still
// pending is kept whatever its age.
func (s *Service) retentionRule() platform.RetentionRule {
	return platform.RetentionRule{Name: "connector_calls", Keep: CallRetention, Min: time.Hour, DeleteBatch: s.deleteOldCalls}
}

// deleteOldCalls walks the oldest calls by id (ids grow with time, so the walk stops at the
// first one made after the cutoff and never reads the recent ones).
func (s *Service) deleteOldCalls(ctx context.Context, before time.Time, after, limit int) (int, int, bool, error) {
	rows, err := s.p.DB.Client.ConnectorCall.Query().Where(connectorcall.IDGT(after)).
		Order(ent.Asc(connectorcall.FieldID)).Limit(limit).
		Select(connectorcall.FieldID, connectorcall.FieldStatus, connectorcall.FieldCreatedAt).All(ctx)
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
		if d.Status != connectorcall.StatusPending {
			old = append(old, d.ID)
		}
	}
	if len(old) == 0 {
		return 0, after, done, nil
	}
	deleted := 0
	err = s.p.InTx(ctx, func(tx *ent.Tx) error {
		// A call that went back to pending since it was read (a replay) is kept, attempts and all.
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
	return deleted, after, done, err
}
