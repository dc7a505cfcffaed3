package shops

import (
	"context"
	"fmt"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/ent/apioverride"
	"github.com/checkoutd/checkoutd/ent/externalpaymentgateway"
	"github.com/checkoutd/checkoutd/ent/rsaconfig"
	"github.com/checkoutd/checkoutd/ent/shop"
	"github.com/checkoutd/checkoutd/service/secrets"
)

// sealedColumn is a column ent/schema seals (secrets.String, secrets.Bytes).
type sealedColumn struct {
	table, column string
	// binary columns take []byte; text columns take a string (PostgreSQL would store a []byte
	// given to a text column as its bytea escape).
	binary bool
}

func (c sealedColumn) name() string { return c.table + "." + c.column }

// sealedColumns are every sealed column; the name of each is the one its ValueScanner binds
// its values to.
var sealedColumns = []sealedColumn{
	{shop.Table, shop.FieldSharedSecret, false},
	{shop.Table, shop.FieldJwtKey, true},
	{externalpaymentgateway.Table, externalpaymentgateway.FieldAPIToken, false},
	{apioverride.Table, apioverride.FieldSharedSecret, false},
	{rsaconfig.Table, rsaconfig.FieldSharedSecret, false},
}

// resealBatch bounds the rows read and rewritten in one go, so that re-sealing a large database
// holds SQLite's one writer for short transactions only.
const resealBatch = 200

// PrepareSecrets seals the secrets stored in clear (by a checkoutd from before secrets were
// sealed) under the current key, and fails if a stored secret is sealed with a key the ring does
// not hold: serve calls it at start, so that a wrong key stops it with one clear error instead of
// failing every call that signs. It returns how many secrets it sealed.
func (s *Service) PrepareSecrets(ctx context.Context) (int, error) {
	return s.reseal(ctx, func(r *secrets.Ring, stored []byte) (bool, error) {
		if kid := secrets.SealedWith(stored); kid != "" && !r.HasKey(kid) {
			return false, &secrets.UnknownKeyError{ID: kid}
		}
		return !secrets.IsSealed(stored), nil
	})
}

// RotateSecrets re-seals under the current key every secret sealed with another key or stored in
// clear, in batches, so that the keys of CHECKOUT_SECRET_KEY_PREVIOUS can then be dropped. A
// secret written meanwhile is left as it is (it is under the current key already). It returns
// how many secrets it re-sealed.
func (s *Service) RotateSecrets(ctx context.Context) (int, error) {
	return s.reseal(ctx, func(r *secrets.Ring, stored []byte) (bool, error) {
		return secrets.SealedWith(stored) != r.CurrentID(), nil
	})
}

// reseal walks every sealed column and seals again under the current key each value stale
// reports. It reads and writes the raw column values: through ent they would be clear already.
func (s *Service) reseal(ctx context.Context, stale func(*secrets.Ring, []byte) (bool, error)) (int, error) {
	ring := secrets.Installed()
	if ring == nil {
		return 0, secrets.ErrNoKeyRing
	}
	n := 0
	for _, c := range sealedColumns {
		for after := 0; ; {
			rows, err := s.staleRows(ctx, ring, c, after, stale)
			if err != nil {
				return n, err
			}
			if len(rows.ids) > 0 {
				written, err := s.rewrite(ctx, ring, c, rows)
				n += written
				if err != nil {
					return n, err
				}
			}
			if !rows.more {
				break
			}
			after = rows.last
		}
	}
	return n, nil
}

type staleBatch struct {
	ids    []int
	stored [][]byte
	last   int
	more   bool
}

// staleRows reads the next batch of c's values after the row id after and keeps the stale ones.
// The batch is read to its end before anything is written: SQLite's writer has one connection.
func (s *Service) staleRows(ctx context.Context, ring *secrets.Ring, c sealedColumn, after int,
	stale func(*secrets.Ring, []byte) (bool, error)) (staleBatch, error) {
	query, args := entsql.Dialect(s.p.DB.Dialect).Select("id", c.column).From(entsql.Table(c.table)).
		Where(entsql.And(entsql.GT("id", after), entsql.NotNull(c.column))).OrderBy("id").Limit(resealBatch).Query()
	rows, err := s.p.DB.SQL.QueryContext(ctx, query, args...)
	if err != nil {
		return staleBatch{}, err
	}
	defer rows.Close()
	var b staleBatch
	count := 0
	for rows.Next() {
		var id int
		var stored []byte
		if err := rows.Scan(&id, &stored); err != nil {
			return staleBatch{}, err
		}
		count++
		b.last = id
		ok, err := stale(ring, stored)
		if err != nil {
			return staleBatch{}, fmt.Errorf("%s of row %d: %w", c.name(), id, err)
		}
		if ok {
			b.ids, b.stored = append(b.ids, id), append(b.stored, stored)
		}
	}
	b.more = count == resealBatch
	return b, rows.Err()
}

// rewrite seals b's values again in one transaction. Each row is written only if its value is
// still the one read, so that a secret changed meanwhile is not overwritten with the old one.
func (s *Service) rewrite(ctx context.Context, ring *secrets.Ring, c sealedColumn, b staleBatch) (int, error) {
	tx, err := s.p.DB.SQL.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback() }() // after Commit it does nothing
	n := 0
	for i, id := range b.ids {
		plain, err := ring.Open(b.stored[i], c.name())
		if err != nil {
			return 0, fmt.Errorf("%s of row %d: %w", c.name(), id, err)
		}
		var sealed, old any = ring.Seal(plain, c.name()), b.stored[i]
		if !c.binary {
			sealed, old = string(sealed.([]byte)), string(b.stored[i])
		}
		query, args := entsql.Dialect(s.p.DB.Dialect).Update(c.table).Set(c.column, sealed).
			Where(entsql.And(entsql.EQ("id", id), entsql.EQ(c.column, old))).Query()
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return 0, err
		}
		affected, err := res.RowsAffected()
		if err != nil {
			return 0, err
		}
		n += int(affected)
	}
	return n, tx.Commit()
}
