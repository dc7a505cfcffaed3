package payment_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The ledger is the only writer of payment_transactions: no other package creates, updates or
// deletes its rows.
func TestTheLedgerIsTheOnlyWriterOfPaymentTransactions(t *testing.T) {
	write := regexp.MustCompile(`\.PaymentTransaction\.(Create|CreateBulk|Update|UpdateOne|UpdateOneID|Delete|DeleteOne|DeleteOneID)\(`)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "ent" || rel == "service/payment" || strings.HasPrefix(d.Name(), ".") || rel == "graph/generated" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if write.MatchString(line) {
				t.Errorf("%s:%d writes payment_transactions outside the ledger (service/payment)", rel, i+1)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
