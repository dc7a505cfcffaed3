package orders

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
)

// orderFields maps each column of the orders table to its field of ent.Order (ent names a
// field's json tag after its column).
var orderFields = func() map[string]int {
	t := reflect.TypeFor[ent.Order]()
	fields := map[string]int{}
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			fields[name] = i
		}
	}
	for _, c := range order.Columns {
		if _, ok := fields[c]; !ok {
			panic("ent.Order has no field for column " + c)
		}
	}
	return fields
}()

// VerifyAppliedOrders makes every applied order be checked against the row read back, in test
// binaries, so that each change the tests make proves AppliedOrder right.
var VerifyAppliedOrders = testing.Testing()

// AppliedOrder is the locked order o as the update m leaves it, worked out instead of read back:
// an update sets, clears or adds to columns, and nothing else writes an order row that is locked.
// Times are kept as the database keeps them (UTC; rounded to microseconds on PostgreSQL).
func (s *Service) AppliedOrder(o *ent.Order, m *ent.OrderMutation) (*ent.Order, error) {
	out := *o
	v := reflect.ValueOf(&out).Elem()
	for _, name := range m.Fields() {
		value, _ := m.Field(name)
		if err := setOrderField(v.Field(orderFields[name]), reflect.ValueOf(s.storedTime(value))); err != nil {
			return nil, fmt.Errorf("order.%s: %w", name, err)
		}
	}
	for _, name := range m.ClearedFields() {
		f := v.Field(orderFields[name])
		f.Set(reflect.Zero(f.Type()))
	}
	for _, name := range m.AddedFields() {
		delta, _ := m.AddedField(name)
		f, d := v.Field(orderFields[name]), reflect.ValueOf(delta)
		if !f.CanInt() || !d.CanInt() {
			return nil, fmt.Errorf("order.%s: cannot add %T", name, delta)
		}
		f.SetInt(f.Int() + d.Int())
	}
	return &out, nil
}

func setOrderField(f, value reflect.Value) error {
	switch t := value.Type(); {
	case t.AssignableTo(f.Type()):
		f.Set(value)
	case f.Kind() == reflect.Pointer && t.AssignableTo(f.Type().Elem()):
		p := reflect.New(t)
		p.Elem().Set(value)
		f.Set(p)
	default:
		return fmt.Errorf("cannot set %s from %s", f.Type(), t)
	}
	return nil
}

func (s *Service) storedTime(value ent.Value) ent.Value {
	t, ok := value.(time.Time)
	if !ok {
		return value
	}
	t = t.UTC()
	if s.p.DB.Dialect == dialect.Postgres {
		t = t.Round(time.Microsecond) // PostgreSQL rounds to its microseconds
	}
	return t
}

// StoredNow is the wall clock as both databases keep a time (UTC, whole microseconds): a row
// written with it is the row read back, so that what a change created can be kept.
func StoredNow() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// UpdateLockedOrder runs update on the order o, locked in tx, and answers the order it leaves.
func (s *Service) UpdateLockedOrder(ctx context.Context, tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) (*ent.Order, error) {
	if err := update.Exec(ctx); err != nil {
		return nil, err
	}
	applied, err := s.AppliedOrder(o, update.Mutation())
	if err != nil {
		return nil, err
	}
	if VerifyAppliedOrders {
		if err := CheckAppliedOrder(ctx, tx.Client(), applied); err != nil {
			return nil, err
		}
	}
	return applied, nil
}

// CheckAppliedOrder compares an applied order with its row read back through c. Should another
// change have committed meanwhile (c outside a transaction), there is nothing to compare.
func CheckAppliedOrder(ctx context.Context, c *ent.Client, applied *ent.Order) error {
	stored, err := c.Order.Get(ctx, applied.ID)
	if err != nil || stored.Version != applied.Version {
		return err
	}
	a, b := reflect.ValueOf(applied).Elem(), reflect.ValueOf(stored).Elem()
	for _, name := range order.Columns {
		if name == order.FieldRsaLeaseHolder || name == order.FieldRsaLeaseExpiresAt {
			continue // the RSA hold is not the order's state (RemoteHold)
		}
		x, y := a.Field(orderFields[name]).Interface(), b.Field(orderFields[name]).Interface()
		if !sameStoredValue(x, y) {
			return fmt.Errorf("applied order %s: %s is %#v, the row holds %#v", applied.PublicOrderID, name, x, y)
		}
	}
	return nil
}

// sameStoredValue compares a field; times may differ by PostgreSQL's rounding of a half
// microsecond, which the applied time cannot know.
func sameStoredValue(x, y any) bool {
	near := func(a, b time.Time) bool { return a.Sub(b).Abs() <= time.Microsecond }
	switch tx := x.(type) {
	case time.Time:
		return near(tx, y.(time.Time))
	case *time.Time:
		ty := y.(*time.Time)
		return tx == nil && ty == nil || tx != nil && ty != nil && near(*tx, *ty)
	}
	return reflect.DeepEqual(x, y)
}
