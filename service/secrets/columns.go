package secrets

import (
	"database/sql"
	"database/sql/driver"

	"entgo.io/ent/schema/field"
)

// String seals a string field of ent's schema in its column ("table.column"): ent writes the
// sealed value and reads back the clear one, so nothing above the storage layer sees a
// ciphertext.
func String(column string) field.ValueScannerFunc[string, *sql.NullString] {
	return field.ValueScannerFunc[string, *sql.NullString]{
		V: func(plain string) (driver.Value, error) {
			sealed, err := seal([]byte(plain), column)
			return string(sealed), err
		},
		S: func(stored *sql.NullString) (string, error) {
			if !stored.Valid {
				return "", nil
			}
			plain, err := open([]byte(stored.String), column)
			return string(plain), err
		},
	}
}

// Bytes seals a bytes field of ent's schema in its column ("table.column"), as String does.
func Bytes(column string) field.ValueScannerFunc[[]byte, *sql.Null[[]byte]] {
	return field.ValueScannerFunc[[]byte, *sql.Null[[]byte]]{
		V: func(plain []byte) (driver.Value, error) { return seal(plain, column) },
		S: func(stored *sql.Null[[]byte]) ([]byte, error) {
			if !stored.Valid {
				return nil, nil
			}
			return open(stored.V, column)
		},
	}
}

func seal(plain []byte, column string) ([]byte, error) {
	r := Installed()
	if r == nil {
		return nil, ErrNoKeyRing
	}
	return r.Seal(plain, column), nil
}

func open(stored []byte, column string) ([]byte, error) {
	r := Installed()
	if r == nil {
		if IsSealed(stored) {
			return nil, ErrNoKeyRing
		}
		return stored, nil
	}
	return r.Open(stored, column)
}
