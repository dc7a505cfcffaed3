package checkout

import (
	"context"
	"time"

	"github.com/checkoutd/checkoutd/ent/idempotencykey"
	"github.com/checkoutd/checkoutd/service/platform"
)

// IdempotencyRecordRetention is how long an idempotency record is kept after its call
// (CHECKOUT_RETENTION_IDEMPOTENCY_RECORDS overrides it); past IdempotencyKeyLifetime it no
// longer replays, so no setting may keep it for less.
const IdempotencyRecordRetention = 48 * time.Hour

func (s *Service) idempotencyRetentionRule() platform.RetentionRule {
	return platform.RetentionRule{Name: "idempotency_records", Keep: IdempotencyRecordRetention, Min: IdempotencyKeyLifetime,
		DeleteBatch: s.deleteOldIdempotencyRecords}
}

// deleteOldIdempotencyRecords deletes records made before the cutoff, found through their
// expiry's index (a record expires IdempotencyKeyLifetime after it is made).
func (s *Service) deleteOldIdempotencyRecords(ctx context.Context, before time.Time, after, limit int) (int, int, bool, error) {
	ids, err := s.p.DB.Client.IdempotencyKey.Query().Where(idempotencykey.ExpiresAtLT(before.Add(IdempotencyKeyLifetime))).
		Limit(limit).IDs(ctx)
	if err != nil || len(ids) == 0 {
		return 0, after, true, err
	}
	n, err := s.p.DB.Client.IdempotencyKey.Delete().Where(idempotencykey.IDIn(ids...),
		idempotencykey.ExpiresAtLT(before.Add(IdempotencyKeyLifetime))).Exec(ctx)
	return n, after, len(ids) < limit, err
}
