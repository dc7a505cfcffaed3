package remotelog

import (
	"context"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/remoteexchange"
	"github.com/checkoutd/checkoutd/service/platform"
)

// Retention is how long an exchange is kept (CHECKOUT_RETENTION_REMOTE_EXCHANGES overrides
// it): support looks at the last days, and a busy shop makes several exchanges per checkout.
const Retention = 7 * 24 * time.Hour

// retentionRule deletes exchanges made before the cutoff, oldest first.
func (s *Service) retentionRule() platform.RetentionRule {
	return platform.RetentionRule{Name: "remote_exchanges", Keep: Retention, Min: time.Hour,
		DeleteBatch: platform.WalkOldest(s.oldestExchanges, s.removeExchanges)}
}

func (s *Service) oldestExchanges(ctx context.Context, after, limit int) ([]platform.OldRecord, error) {
	rows, err := s.p.DB.Client.RemoteExchange.Query().Where(remoteexchange.IDGT(after)).
		Order(ent.Asc(remoteexchange.FieldID)).Limit(limit).
		Select(remoteexchange.FieldID, remoteexchange.FieldAt).All(ctx)
	out := make([]platform.OldRecord, len(rows))
	for i, r := range rows {
		out[i] = platform.OldRecord{ID: r.ID, Made: r.At, Finished: true}
	}
	return out, err
}

func (s *Service) removeExchanges(ctx context.Context, old []int) (int, error) {
	return s.p.DB.Client.RemoteExchange.Delete().Where(remoteexchange.IDIn(old...)).Exec(ctx)
}
